/* keys.js: "/" focuses the page's search box (the search page's own,
 * else the header's), as on MkDocs Material and Docusaurus; not while
 * the reader types in a field or holds a modifier key. Every page reads
 * and searches without it (the header's box is a plain GET form). */
(function () {
	"use strict";
	document.addEventListener("keydown", function (e) {
		var t = e.target, tag = t && t.tagName;
		if (e.key !== "/" || e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
		if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || (t && t.isContentEditable)) return;
		var box = document.getElementById("search-q");
		if (!box || box.closest("[hidden]")) box = document.getElementById("site-q");
		if (!box) return;
		e.preventDefault();
		box.focus();
		box.select();
	});
})();
