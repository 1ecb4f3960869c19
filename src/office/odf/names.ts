/**
 * How an OpenDocument family's tree names things. The shared ODF code names elements and attributes
 * by their qualified ODF names (`table:number-columns-spanned`); the text reader (odt) reads with
 * namespaces resolved and matches those names exactly, while the spreadsheet and presentation readers
 * (ods, odp) read well-formed parts and match by local name whatever the prefix. Each family passes
 * its `OdfNames`, so the shared code reads both trees as their readers always have.
 */
import { attr as attrByLocalName } from '../package/local-names.js';
import type { XmlElement } from '../package/xml.js';

export interface OdfNames {
  /** The attribute with the qualified ODF name `qname`. */
  attr(el: XmlElement | undefined, qname: string): string | undefined;
  /** Whether the element is the one with the qualified ODF name `qname`. */
  is(el: XmlElement, qname: string): boolean;
}

function localOf(qname: string): string {
  return qname.slice(qname.indexOf(':') + 1);
}

/** Names resolved through the namespaces (odt): matched exactly. */
export const RESOLVED_NAMES: OdfNames = {
  attr: (el, qname) => el?.attrs[qname],
  is: (el, qname) => el.name === qname,
};

/** Names matched by their local part whatever the prefix (ods, odp). */
export const LOCAL_NAMES: OdfNames = {
  attr: (el, qname) => attrByLocalName(el, localOf(qname)),
  is: (el, qname) => el.local === localOf(qname),
};
