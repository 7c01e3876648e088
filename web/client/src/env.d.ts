// esbuild bundles imported stylesheets into the build's one CSS file.
declare module "*.css";
