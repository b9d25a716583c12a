// How <Comments> tells the stylesheet which color-scheme to declare (the darkMode option): a data
// attribute the stylesheet's own rules match, and for a site's own toggle selectors one small rule
// that no static file can know in advance.
import type { RenderSettings } from "../integration/options.ts";

type DarkMode = RenderSettings["darkMode"];

/** The value of the section's data-comments-scheme; undefined declares nothing (darkMode: false). */
export function colorSchemeAttribute(mode: DarkMode): "auto" | "media" | "custom" | undefined {
  if (mode === false) return undefined;
  return typeof mode === "string" ? mode : "custom";
}

/** The rule for darkMode: { dark, light }, or "" for the modes the stylesheet covers itself. */
export function customColorSchemeCss(mode: DarkMode): string {
  if (mode === false || typeof mode === "string") return "";
  const rule = (selector: string, scheme: string) =>
    `:where(${selector}) :where([data-comments-scheme="custom"]){color-scheme:${scheme}}`;
  return mode.light === undefined ? rule(mode.dark, "dark") : `${rule(mode.dark, "dark")}${rule(mode.light, "light")}`;
}
