/**
 * The readable text of a fetched page, for a model that asked to read it: HTML made into plain
 * text (scripts, styles and other non-content elements dropped, block elements on their own
 * lines, links kept as `text (url)`, entities decoded, whitespace collapsed), other text as it
 * is; capped. A careful small converter, not a browser: enough for a model to read an article.
 */

const DROPPED = /<(script|style|title|noscript|template|svg|head|iframe|object|canvas|select|button|nav|footer)\b/gi;
const BLOCK = /<\/?(p|div|section|article|main|aside|header|h[1-6]|ul|ol|dl|dt|dd|table|tr|thead|tbody|blockquote|pre|figure|figcaption|form|fieldset|address|hr)\b[^>]*>/gi;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', mdash: '—', ndash: '–', hellip: '…', laquo: '«', raquo: '»', copy: '©', reg: '®', rsquo: '’', lsquo: '‘', rdquo: '”', ldquo: '“' };

/** HTML character references decoded (numeric ones and the common named ones). */
export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,8});/gi, (m, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : m;
    }
    return NAMED[ref.toLowerCase()] ?? m;
  });
}

/** The page's `<title>`, when it has one. */
export function htmlTitle(html: string): string | undefined {
  const m = /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i.exec(html);
  const t = m && decodeEntities(m[1]!.replace(/<[^>]*>/g, '')).replace(/\s+/g, ' ').trim();
  return t || undefined;
}

/**
 * `html` without its comments and non-content elements, in one pass (an element left open drops
 * the rest: never a search from every opening to the end, which a page of unclosed tags would make
 * quadratic).
 */
function withoutDropped(html: string): string {
  let out = '';
  let at = 0;
  const lower = html.toLowerCase();
  const open = new RegExp(`<!--|${DROPPED.source}`, 'gi');
  for (let m = open.exec(html); m; m = open.exec(html)) {
    out += html.slice(at, m.index) + ' ';
    const close = m[0] === '<!--' ? '-->' : `</${m[1]!.toLowerCase()}`;
    const end = lower.indexOf(close, m.index + m[0].length);
    if (end < 0) return out;
    const gt = close === '-->' ? end + 3 : html.indexOf('>', end);
    if (gt < 0) return out;
    at = gt + (close === '-->' ? 0 : 1);
    open.lastIndex = at;
  }
  return out + html.slice(at);
}

/** Plain text of an HTML document. */
export function htmlToText(html: string): string {
  let s = withoutDropped(html);
  const start = /<body\b[^>]*>/i.exec(s);
  if (start) s = s.slice(start.index + start[0].length);
  // Links keep their target after their text: `text (https://…)`.
  let href: string | undefined;
  s = s
    .replace(/<(\/?)a\b([^>]*)>/gi, (_m, closing: string, attrs: string) => {
      if (!closing) {
        href = /\bhref\s*=\s*["']?(https?:[^"'\s>]+)/i.exec(attrs)?.[1];
        return '';
      }
      const said = href ? ` (${href})` : '';
      href = undefined;
      return said;
    })
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<li\b[^>]*>/gi, '\n- ')
    .replace(/<\/li\s*>/gi, '')
    .replace(BLOCK, '\n')
    .replace(/<\/?(td|th)\b[^>]*>/gi, ' ')
    .replace(/<[^>]*>/g, '');
  return decodeEntities(s)
    .replace(/[ \t\f\v\u00a0]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** What a model is given of a page: its title and readable text, at most `maxChars` of it. */
export function pageText(body: string, mediaType: string, maxChars = 20_000): { title?: string; text: string; truncated: boolean } {
  const html = mediaType === 'text/html' || mediaType === 'application/xhtml+xml' || (/^\s*<(!doctype html|html)\b/i.test(body) && mediaType !== 'text/plain');
  const title = html ? htmlTitle(body) : undefined;
  const text = html ? htmlToText(body) : body.trim();
  const truncated = text.length > maxChars;
  return { ...(title && { title }), text: truncated ? text.slice(0, maxChars) : text, truncated };
}
