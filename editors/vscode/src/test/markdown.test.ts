// Unit tests of the goose view's Markdown renderer: what it renders, and that nothing the model writes
// becomes markup, script or a live link.
import { test } from "node:test";
import * as assert from "node:assert/strict";
import { escapeHtml, renderMarkdown } from "../lib/markdown";

test("escaping covers element content and both attribute quotes", () => {
  assert.equal(escapeHtml(`<a href="x" title='y'>&</a>`), "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;");
});

test("the usual forms render", () => {
  assert.equal(renderMarkdown("# Title\nSome **bold**, *it* and `code`.\n\n- a\n- b\n\n1. one\n"),
    "<h3>Title</h3>\n<p>Some <strong>bold</strong>, <em>it</em> and <code>code</code>.</p>\n<ul><li>a</li><li>b</li></ul>\n<ol><li>one</li></ol>");
  assert.equal(renderMarkdown("```go\nif a < b {}\n```"), '<pre data-lang="go"><code>if a &lt; b {}</code></pre>');
  assert.equal(renderMarkdown("> quoted"), "<blockquote>quoted</blockquote>");
  assert.equal(renderMarkdown("line one\nline two"), "<p>line one<br>line two</p>");
});

test("a fence still open while streaming shows what came so far", () => {
  assert.equal(renderMarkdown("Here:\n```\nx = 1"), "<p>Here:</p>\n<pre><code>x = 1</code></pre>");
});

test("nothing the model writes becomes markup or a link", () => {
  const hostile = [
    "<script>alert(1)</script>",
    '<img src=x onerror="alert(1)">',
    "[click](javascript:alert(1))",
    "`<b>` and **<i>x</i>**",
    "```\n</code></pre><script>x</script>\n```",
    '<a href="https://evil">x</a>',
  ];
  for (const h of hostile) {
    const html = renderMarkdown(h);
    // every tag is one the renderer makes, with no attribute but its own class or data-lang
    for (const tag of html.match(/<[^>]*>/g) ?? []) {
      assert.match(tag, /^<\/?(p|br|code|pre|strong|em|ul|ol|li|h[3-6]|blockquote|span)( class="(link|url)"| data-lang="[\w+-]+")?>$/, `${tag} in ${html}`);
    }
  }
  assert.equal(renderMarkdown("[docs](https://x.dev/a)"), '<p><span class="link">docs</span> <span class="url">(https://x.dev/a)</span></p>');
});
