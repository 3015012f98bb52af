export { buildBundle } from './build-bundle.js';
export { bundleFileName, bundleInputProblems, type BundleManifest } from './bundle-inputs.js';
