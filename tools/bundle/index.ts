export { buildBundle } from './build-bundle.js';
export { bundleFileName, bundleInputProblems, carryOptionalPeers, type BundleManifest } from './bundle-inputs.js';
