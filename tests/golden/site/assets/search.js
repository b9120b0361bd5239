/* search.js: the search page (search/index.html). The index is a set of
 * small script files in search/ (gen/search/search_index.h); each is
 * loaded by a script element of its own and calls one of the functions
 * below, so the page works from a web server and from file:// alike
 * (no fetch). A query loads the manifest, the shard of each of its words
 * and the record chunks of the results it shows, nothing else. No
 * library, no request to elsewhere. */
(function () {
	"use strict";
	var S = window.mirrorSearch = {};
	var me = document.currentScript;
	var root = me.getAttribute("data-root") || "";
	var man = null, shards = {}, chunks = {}, waits = {};
	var PAGE = 8, MAX_CHUNKS = 12, FLAGS = { disputed: 1, checked: 2 };
	var LAYERS = ["state", "entity", "memory", "conflict", "check"];
	var $ = function (id) { return document.getElementById(id); };
	var form = $("search-form"), input = $("search-q"), list = $("search-results");
	var count = $("search-count"), more = $("search-more");
	var state = null;

	S.m = function (o) { man = o; };
	/* Shard k's terms and postings: entries "<shared><rest> <postings>"
	 * cut by spaces, shared a base-36 digit, the leading characters the
	 * term takes from the one before it (gen/search/search_index.h). */
	S.t = function (key, s) {
		var o = Object.create(null), a = s.split(" "), prev = "";
		for (var i = 0; i + 1 < a.length; i += 2) {
			prev = prev.slice(0, parseInt(a[i].charAt(0), 36)) + a[i].slice(1);
			o[prev] = a[i + 1];
		}
		shards[key] = o;
	};
	/* Chunk n's records, each [gap, ...]: its slot's place in the chunk
	 * is the record before's plus gap (the first's: gap). */
	S.d = function (n, t, a) {
		var r = Object.create(null), lo = 0;
		a.forEach(function (x) { lo += x[0]; r[lo] = x.slice(1); });
		chunks[n] = { t: t, r: r };
	};

	/* Load root + path once, by a script element; a promise of its end. */
	function load(path) {
		if (!waits[path]) {
			waits[path] = new Promise(function (ok, fail) {
				var s = document.createElement("script");
				s.src = root + path;
				s.onload = ok;
				s.onerror = function () { fail(new Error(path)); };
				document.head.appendChild(s);
			});
		}
		return waits[path];
	}

	/* The words of q, as the index cut its text: runs of ASCII letters
	 * and digits (lower-cased) and of other characters past ASCII. */
	function words(q) {
		var out = [], m = q.match(/[0-9A-Za-z\u0080-\uffff]+/g) || [];
		m.forEach(function (w) {
			w = w.replace(/[A-Z]+/g, function (c) { return c.toLowerCase(); });
			if (new TextEncoder().encode(w).length <= 64 && out.indexOf(w) < 0)
				out.push(w);
		});
		return out;
	}

	/* The shard that holds term t: the last whose first term is <= t. */
	function shardOf(t) {
		var lo = 0, hi = man.first.length - 1;
		while (lo < hi) {
			var mid = (lo + hi + 1) >> 1;
			if (man.first[mid] <= t) lo = mid; else hi = mid - 1;
		}
		return lo;
	}

	/* Postings text to {ids, total, cut}: "c.k.f;" first (the
	 * documents of each kind) when the term keeps a sample. */
	function postings(s) {
		var total = -1, i = s.indexOf(";"), ids = [], d = 0;
		if (i >= 0) {
			total = 0;
			s.slice(0, i).split(".").forEach(function (x) { total += parseInt(x, 36); });
			s = s.slice(i + 1);
		}
		s.split(",").forEach(function (x) {
			if (x === "") return;
			d += parseInt(x, 36); ids.push(d);
		});
		return { ids: ids, total: total < 0 ? ids.length : total, cut: total >= 0 };
	}

	/* A document's kind (0 conflict, 1 check, 2 fact) is the range of
	 * man.kinds its number is in, its slot the number past the range's
	 * start; its chunk is (slot / man.chunk) * 4 + kind, its place in
	 * the chunk slot % man.chunk (gen/search/search_index.h). */
	var KINDS = ["c", "k", "f"];
	function kindOf(id) {
		for (var k = 0; k < 3; k++)
			if (id >= man.kinds[KINDS[k]][0] && id < man.kinds[KINDS[k]][1]) return k;
		return 2;
	}
	function slotOf(id) { return id - man.kinds[KINDS[kindOf(id)]][0]; }
	function chunkOf(id) { return Math.floor(slotOf(id) / man.chunk) * 4 + kindOf(id); }
	/* Results in the order conflicts, checks, facts; by number within. */
	function byKind(a, b) { return kindOf(a) - kindOf(b) || a - b; }

	/* The documents of term t (the terms it starts, when prefix). */
	function lookup(t, prefix) {
		var key = man.keys[shardOf(t)];
		return load("search/t-" + key + ".js").then(function () {
			var sh = shards[key] || {}, hit = {}, cut = false, total = 0;
			var keys = prefix ? Object.keys(sh).filter(function (w) {
				return w.lastIndexOf(t, 0) === 0;
			}) : (sh[t] !== undefined ? [t] : []);
			if (keys.length === 0) return { ids: [], total: 0, cut: false };
			keys.forEach(function (w) {
				var p = postings(sh[w]);
				p.ids.forEach(function (id) { hit[id] = 1; });
				cut = cut || p.cut;
				total += p.total;
			});
			var ids = Object.keys(hit).map(Number).sort(byKind);
			return { ids: ids, total: cut ? total : ids.length, cut: cut };
		});
	}

	/* The documents whose id, key or name is the whole query (one word
	 * of more than one term), else those of every word of q. */
	function match(q) {
		var ws = words(q), whole = q.trim().toLowerCase();
		var one = whole && !/\s/.test(whole) && ws.length > 1 ?
			lookup(whole, false) : Promise.resolve({ ids: [] });
		return one.then(function (w) {
			if (w.ids.length) return { ids: w.ids, partial: w.cut };
			return Promise.all(ws.map(function (t, i) {
				return lookup(t, i === ws.length - 1 && !/\s$/.test(q));
			})).then(function (rs) {
				var full = rs.filter(function (r) { return !r.cut; });
				var use = full.length > 0 ? full : rs, set = null;
				use.forEach(function (r) {
					if (set === null) { set = r.ids.slice(); return; }
					var have = {};
					r.ids.forEach(function (id) { have[id] = 1; });
					set = set.filter(function (id) { return have[id]; });
				});
				return { ids: set || [], partial: full.length === 0 &&
					rs.some(function (r) { return r.cut; }) };
			});
		});
	}

	/* The URL of record r (layer code l, project p): as written, or
	 * [page] for page#id, or rebuilt as the index left it out (a
	 * conflict's page; a fact's anchor on its project's overview). */
	function url(r, l, p) {
		var u = r[6];
		if (typeof u === "string") return u;
		if (u) return u[0] + "#" + r[5];
		if (l === 3) return "conflicts/" + r[5] + ".html";
		return (p[1] ? "projects/" + p[1] + "/index.html" : "index.html") +
			"#" + LAYERS[l] + "-" + r[5];
	}

	/* The record of document id, its chunk loaded: [4 * layer + flags,
	 * title, value, project, status (indexes into the chunk's tables),
	 * id, url when not rebuilt] (gen/search/search_index.h). */
	function record(id) {
		var c = chunks[chunkOf(id)];
		var r = c.r[slotOf(id) % man.chunk], l = r[0] >> 3, p = c.t.p[r[3]];
		return { kind: l === 3 ? "c" : l === 4 ? "k" : "f", title: r[1], value: r[2],
			project: p[0], url: url(r, l, p), layer: LAYERS[l], status: c.t.s[r[4]],
			flags: r[0] & 3, id: r[5] };
	}

	function filters() {
		return { project: $("search-project").value, layer: $("search-layer").value,
			status: $("search-status").value, disputed: $("search-disputed").value,
			checked: $("search-checked").value };
	}

	/* 1 when document id may pass the layer filter f, by the kind its
	 * number ends in, before its chunk is loaded. */
	function kindPasses(id, f) {
		var k = f.layer === "conflict" ? 0 : f.layer === "check" ? 1 : f.layer ? 2 : -1;
		return k < 0 || kindOf(id) === k;
	}

	function passes(r, f) {
		if (f.project && r.project !== f.project) return false;
		if (f.layer && r.layer !== f.layer) return false;
		if (f.status && r.status !== f.status) return false;
		if (f.disputed && String(r.flags & FLAGS.disputed ? 1 : 0) !== f.disputed) return false;
		if (f.checked && String(r.flags & FLAGS.checked ? 1 : 0) !== f.checked) return false;
		return true;
	}

	/* Add the values seen to a facet's list, keeping the one chosen. */
	function facet(sel, values) {
		var have = {};
		Array.prototype.forEach.call(sel.options, function (o) { have[o.value] = 1; });
		values.sort().forEach(function (v) {
			if (have[v]) return;
			have[v] = 1;
			var o = document.createElement("option");
			o.value = v;
			o.textContent = v;
			sel.appendChild(o);
		});
	}

	function el(tag, cls, text) {
		var e = document.createElement(tag);
		if (cls) e.className = cls;
		if (text !== undefined) e.textContent = text;
		return e;
	}

	function show(r) {
		var li = el("li"), a = el("a", null, r.title || r.id);
		a.href = root + r.url;
		li.appendChild(a);
		if (r.value) { li.appendChild(document.createTextNode(": ")); li.appendChild(el("span", "search-value", r.value)); }
		if (r.flags & FLAGS.disputed) li.appendChild(el("span", "search-flag", "\u26a0 disputed"));
		if (r.flags & FLAGS.checked) li.appendChild(el("span", "search-flag", "open check"));
		var kind = r.kind === "c" ? "conflict" : r.kind === "k" ? "check" : r.layer;
		li.appendChild(el("span", "search-meta", [r.project, kind, r.status, "id " + r.id].join(" \u00b7 ")));
		list.appendChild(li);
	}

	/* Show the next page of state's results: load the chunks of the next
	 * candidates, at most MAX_CHUNKS, until PAGE pass the filters. */
	function page() {
		var st = state, f = filters(), want = [], seen = {}, i;
		while (st.next < st.ids.length && !kindPasses(st.ids[st.next], f)) st.next++;
		i = st.next;
		while (i < st.ids.length && want.length < MAX_CHUNKS) {
			if (!kindPasses(st.ids[i], f)) { i++; continue; }
			var c = chunkOf(st.ids[i]);
			if (!seen[c]) { seen[c] = 1; want.push(c); }
			i++;
			if (i - st.next >= PAGE * 4) break;
		}
		return Promise.all(want.map(function (c) { return load("search/d-" + c + ".js"); })).then(function () {
			if (st !== state) return;
			var shown = 0, projects = [], statuses = [];
			while (st.next < st.ids.length && shown < PAGE) {
				var id = st.ids[st.next];
				if (!kindPasses(id, f)) { st.next++; continue; }
				if (!chunks[chunkOf(id)]) break;
				var r = record(id);
				st.next++;
				projects.push(r.project);
				statuses.push(r.status);
				if (!passes(r, f)) continue;
				show(r);
				shown++;
				st.shown++;
			}
			facet($("search-project"), projects);
			facet($("search-status"), statuses);
			more.hidden = st.next >= st.ids.length;
			var n = st.ids.length, filtered = Object.keys(f).some(function (k) { return f[k]; });
			count.textContent = (n === 0 ? "No results" : n === 1 ? "1 result" : n + " results") +
				(st.partial ? " (common words: a sample)" : "") +
				(filtered ? "; " + st.shown + " shown that pass the filters" : n > st.shown ? "; " + st.shown + " shown" : "") + ".";
		});
	}

	function run() {
		var q = input.value;
		list.textContent = "";
		more.hidden = true;
		if (!words(q).length) { count.textContent = ""; state = null; return Promise.resolve(); }
		var st = state = { q: q, ids: [], next: 0, shown: 0, partial: false };
		return load("search/index.js").then(function () { return match(q); }).then(function (m) {
			if (st !== state) return;
			st.ids = m.ids;
			st.partial = m.partial;
			return page();
		}).catch(function (e) { count.textContent = "The search index could not be loaded (" + e.message + ")."; });
	}

	var timer = null;
	form.hidden = false;
	form.addEventListener("submit", function (e) {
		e.preventDefault();
		if (history.replaceState && location.protocol !== "file:")
			history.replaceState(null, "", "?q=" + encodeURIComponent(input.value));
		run();
	});
	input.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(run, 200); });
	$("search-facets").addEventListener("change", run);
	more.addEventListener("click", page);
	var q = /[?&]q=([^&]*)/.exec(location.search);
	if (q) { input.value = decodeURIComponent(q[1].replace(/\+/g, " ")); run(); }
	S.run = run;
})();
