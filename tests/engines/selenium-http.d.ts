// selenium-webdriver has no "exports" map, so ESM must name the file; its types are the same.
declare module "selenium-webdriver/http/index.js" {
  export * from "selenium-webdriver/http";
}
