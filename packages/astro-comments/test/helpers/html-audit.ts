// Parses HTML the way a browser would tokenize it and lists every element and attribute, so a test
// can assert that only allow-listed markup is left.
import { Parser } from "htmlparser2";
import { allowedAttributes, allowedElements } from "../../src/render/sanitize.ts";

export interface MarkupAudit {
  elements: string[];
  /** `tag[attr]` for every attribute. */
  attributes: string[];
  hrefs: string[];
}

export function auditMarkup(html: string): MarkupAudit {
  const audit: MarkupAudit = { elements: [], attributes: [], hrefs: [] };
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        audit.elements.push(name);
        for (const [attr, value] of Object.entries(attributes)) {
          audit.attributes.push(`${name}[${attr}]`);
          if (attr === "href") audit.hrefs.push(value);
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  return audit;
}

/** Elements or attributes outside the allow-list (rendering adds span[class], pre[class] and pre[tabindex]). */
export function disallowedMarkup(html: string): string[] {
  const audit = auditMarkup(html);
  const extraAttrs: Record<string, readonly string[]> = { span: ["class"], pre: ["class", "tabindex"] };
  return [
    ...audit.elements.filter((tag) => !allowedElements.includes(tag)),
    ...audit.attributes.filter((entry) => {
      const [, tag = "", attr = ""] = /^(.+)\[(.+)\]$/.exec(entry) ?? [];
      return !(allowedAttributes[tag] ?? []).includes(attr) && !(extraAttrs[tag] ?? []).includes(attr);
    }),
    ...audit.hrefs.filter((href) => !/^(https?:|mailto:)/i.test(href.trim())),
  ];
}
