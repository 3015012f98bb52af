export { buildBundle, type BuildBundleOptions } from './build-bundle.js';
export { bundleFileName, bundleInputProblems, type BundleManifest, type BundlePackage } from './bundle-inputs.js';
