import { describe, expect, it } from 'vitest';
import { decodeEntities, htmlToText, pageText } from './page-text.ts';

describe('page text', () => {
  it('HTML: non-content dropped, blocks on their lines, links with their target, entities decoded', () => {
    const html = `<!doctype html><html><head><title>T &amp; U</title><style>p{}</style></head><body>
      <nav>menu</nav><h1>Heading</h1><!-- note --><p>One <b>bold</b>&nbsp;word &#x2014; <a href="https://x.example/a">link</a>.</p>
      <script>alert("x")</script><ul><li>a</li><li>b</li></ul><p>Line<br>break</p><footer>foot</footer></body></html>`;
    expect(htmlToText(html)).toBe('Heading\n\nOne bold word — link (https://x.example/a).\n\n- a\n- b\n\nLine\nbreak');
    expect(pageText(html, 'text/html')).toMatchObject({ title: 'T & U', truncated: false });
  });

  it('an element left open drops the rest, in linear time', () => {
    const html = '<p>kept</p>' + '<script>'.repeat(50_000);
    expect(htmlToText(html)).toBe('kept');
    expect(htmlToText('<p>a</p><!-- open')).toBe('a');
  });

  it('other text as it is; capped', () => {
    expect(pageText('  plain <b>text</b> ', 'text/plain')).toEqual({ text: 'plain <b>text</b>', truncated: false });
    expect(pageText('x'.repeat(30), 'text/plain', 10)).toEqual({ text: 'x'.repeat(10), truncated: true });
  });

  it('entities: numeric and named; unknown or invalid ones kept', () => {
    expect(decodeEntities('&lt;&#65;&#x42;&hellip;&bogus;&#xD800;')).toBe('<AB…&bogus;&#xD800;');
  });
});
