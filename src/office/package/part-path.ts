/**
 * Part names inside a package (OOXML, OpenDocument, EPUB): the directory of a part, and a target
 * (a relationship's, an EPUB href) resolved against it. Part names have no leading slash.
 */

/** The directory of a part, with its trailing slash; '' at the package root. */
export function dirOf(part: string): string {
  const i = part.lastIndexOf('/');
  return i < 0 ? '' : part.slice(0, i + 1);
}

/** Drops empty and `.` segments and applies `..` ones. */
export function normalizePartPath(path: string): string {
  const out: string[] = [];
  for (const s of path.split('/')) {
    if (s === '..') out.pop();
    else if (s !== '.' && s !== '') out.push(s);
  }
  return out.join('/');
}

/** A target relative to the part `fromPart`; one starting with '/' is taken from the package root as written. */
export function resolvePart(fromPart: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  return normalizePartPath(dirOf(fromPart) + target);
}

/** `decodeURIComponent`, or the text unchanged when it is not valid percent-encoding. */
export function decodeUriSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The relationships part of `part` (`word/_rels/document.xml.rels`). */
export function relsPathOf(part: string): string {
  return `${dirOf(part)}_rels/${part.slice(dirOf(part).length)}.rels`;
}
