// PrismJS's grammar files are scripts that extend the global Prism and export nothing.
declare module "prismjs/components/*";
