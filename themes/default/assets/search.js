/* search.js: the search page (search/index.html). The index is a set of
 * small script files in search/ (gen/search/search_index.h); each is
 * loaded by a script element of its own and calls one of the functions
 * below, so the page works from a web server and from file:// alike
 * (no fetch). A query loads the manifest, the shard of each of its words
 * and the record chunks of its candidates, a bounded batch at a time,
 * nothing else. Every match is scored from the shards alone (which
 * words it holds in its title, "<term>!", and which whole), the chunks
 * of the best loaded first, and their records ranked (doc/site.md,
 * "Search"); store text is shown through text nodes only. No library,
 * no request to elsewhere. */
(function () {
	"use strict";
	var S = window.mirrorSearch = {};
	var me = document.currentScript;
	var root = me.getAttribute("data-root") || "";
	var man = null, shards = {}, chunks = {}, waits = {};
	/* PAGE results a page; chunks loaded ROUND at a time, BATCH at most
	 * before a page is shown, ALL at most to count every match. */
	var PAGE = 8, ROUND = 2, BATCH = 3, ALL = 512, FLAGS = { disputed: 1, checked: 2 };
	var LAYERS = ["state", "entity", "memory", "conflict", "check", "project"];
	var FACETS = ["project", "layer", "status", "disputed", "checked"];
	/* Where the words are when neither title nor value holds them. */
	var HIDDEN = ["its category, source or id", "its type, description, sources or id",
		"its id", "its sides' sources or ids", "its rule or id", "its id or aliases"];
	var $ = function (id) { return document.getElementById(id); };
	var form = $("search-form"), input = $("search-q"), list = $("search-results");
	var count = $("search-count"), more = $("search-more");
	var state = null;

	S.m = function (o) { man = o; };
	/* Shard k's terms and postings: entries "<shared><rest> <postings>"
	 * cut by spaces, shared a base-36 digit, the leading characters the
	 * term takes from the one before it (gen/search/search_index.h); a
	 * title's term "t!" after t may hold "~" and a bitmap over t's
	 * documents (unpacked here: gen/search/search_files.h). */
	S.t = function (key, s) {
		var o = Object.create(null), a = s.split(" "), prev = "", before = "";
		for (var i = 0; i + 1 < a.length; i += 2) {
			before = prev;
			prev = prev.slice(0, parseInt(a[i].charAt(0), 36)) + a[i].slice(1);
			var v = a[i + 1];
			o[prev] = v.charAt(0) === "~" ? unpack(v.slice(1), o[before] || "") : v;
		}
		shards[key] = o;
	};
	/* Postings text of the bitmap rel ("c.k.f;" first when sampled, then
	 * a base-32 digit for each 5 of base's documents, bit k the
	 * (5i+k)th) over the postings text base. */
	function unpack(rel, base) {
		var j = rel.indexOf(";"), head = j >= 0 ? rel.slice(0, j + 1) : "";
		var ids = postings(base).ids, out = [], last = 0;
		rel.slice(head.length).split("").forEach(function (c, i) {
			var v = parseInt(c, 32);
			for (var k = 0; k < 5; k++) {
				if (!(v & (1 << k)) || 5 * i + k >= ids.length) continue;
				var id = ids[5 * i + k];
				out.push((id - last).toString(36));
				last = id;
			}
		});
		return head + out.join(",");
	}
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

	var WORD = /[0-9A-Za-z\u0080-\uffff]+/g;
	function lower(w) {
		return w.replace(/[A-Z]+/g, function (c) { return c.toLowerCase(); });
	}
	/* The words of q, as the index cut its text: runs of ASCII letters
	 * and digits (lower-cased) and of other characters past ASCII. */
	function words(q) {
		var out = [], m = q.match(WORD) || [];
		m.forEach(function (w) {
			w = lower(w);
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
	/* Shard i's key: listed when one is made unique by its place,
	 * else 12 hex digits of its first term's hash, as the index
	 * names it (gen/search/search_files.c, search_shard_key: FNV-1a
	 * of its UTF-8 bytes and a 0xff byte, then splitmix64's
	 * finaliser). */
	var B = typeof BigInt === "function" ? BigInt : null;
	function keyOf(i) {
		if (man.keys.length) return man.keys[i];
		var m = (B(1) << B(64)) - B(1), p = B("0x100000001b3");
		var h = B("0xcbf29ce484222325"), b = new TextEncoder().encode(man.first[i]);
		function add(c) { h = ((h ^ B(c)) * p) & m; }
		b.forEach(add);
		add(255);
		h = ((h ^ (h >> B(30))) * B("0xbf58476d1ce4e5b9")) & m;
		h = ((h ^ (h >> B(27))) * B("0x94d049bb133111eb")) & m;
		h ^= h >> B(31);
		return ("000000000000000" + h.toString(16)).slice(-16).slice(0, 12);
	}
	/* A promise of the terms of t's shard, loaded. */
	function shard(t) {
		var key = keyOf(shardOf(t));
		return load("search/t-" + key + ".js").then(function () { return shards[key] || {}; });
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
	/* Candidates in the order conflicts, checks, facts; by number within. */
	function byKind(a, b) { return kindOf(a) - kindOf(b) || a - b; }

	/* A term of the index, not the mark "<term>!" of a title's term
	 * (gen/search/search_index.h). */
	var NAMED = "!";
	function plain(w) { return w.charAt(w.length - 1) !== NAMED; }

	/* The documents of the terms ts of shard sh (and the terms they
	 * start, when prefix): {ids, total, cut, terms: those found, lev:
	 * for each document how it holds the word, 3 a term of its title
	 * whole, 2 a term of its title the word starts, 1 a term elsewhere
	 * whole, 0 one it starts: "<term>!" lists the documents whose
	 * title holds term; kept in t's shard but where a cut falls between
	 * the two, then not counted}. */
	function gather(sh, ts, prefix) {
		var hit = {}, cut = false, total = 0, found = [], lev = {};
		function at(id, v) { if (!(lev[id] >= v)) lev[id] = v; }
		ts.forEach(function (t) {
			var keys = prefix ? Object.keys(sh).filter(function (w) {
				return w.lastIndexOf(t, 0) === 0 && plain(w);
			}) : (sh[t] !== undefined ? [t] : []);
			if (keys.length && found.indexOf(t) < 0) found.push(t);
			keys.forEach(function (w) {
				var p = postings(sh[w]), whole = w === t ? 1 : 0;
				p.ids.forEach(function (id) { hit[id] = 1; at(id, whole); });
				cut = cut || p.cut;
				total += p.total;
				if (sh[w + NAMED] === undefined) return;
				postings(sh[w + NAMED]).ids.forEach(function (id) { at(id, 2 + whole); });
			});
		});
		var ids = Object.keys(hit).map(Number).sort(byKind);
		return { ids: ids, total: cut ? total : ids.length, cut: cut, terms: found,
			lev: lev };
	}

	/* The documents of term t (the terms it starts, when prefix). */
	function lookup(t, prefix) {
		return shard(t).then(function (sh) { return gather(sh, [t], prefix); });
	}

	/* 1 when a and b are one edit apart (a character inserted, deleted,
	 * substituted, or two neighbours swapped), else 0. */
	function oneEdit(a, b) {
		var la = a.length, lb = b.length, i = 0;
		if (Math.abs(la - lb) > 1 || a === b) return 0;
		while (i < la && i < lb && a.charAt(i) === b.charAt(i)) i++;
		if (la === lb) {
			if (a.slice(i + 1) === b.slice(i + 1)) return 1;
			return a.charAt(i) === b.charAt(i + 1) && a.charAt(i + 1) === b.charAt(i) &&
				a.slice(i + 2) === b.slice(i + 2) ? 1 : 0;
		}
		return la < lb ? (a.slice(i) === b.slice(i + 1) ? 1 : 0) :
			(a.slice(i + 1) === b.slice(i) ? 1 : 0);
	}

	/* t's singular or plural forms: a final "s" or "es" taken off or
	 * put on ("ies" for a final "y" and back). */
	function forms(t) {
		var out = [t + "s", t + "es"];
		if (/s$/.test(t)) out.push(t.slice(0, -1));
		if (/es$/.test(t)) out.push(t.slice(0, -2));
		if (/ies$/.test(t)) out.push(t.slice(0, -3) + "y");
		if (/y$/.test(t)) out.push(t.slice(0, -1) + "ies");
		return out.filter(function (x, i) { return x.length > 1 && out.indexOf(x) === i; });
	}

	/* What a word that finds nothing is taken for: its singular or
	 * plural forms the index holds, else the terms one edit away in its
	 * own shard (loaded), for a word of four characters or more with a
	 * letter in it (a number one off is another number). A promise of
	 * gather()'s answer; terms [] when nothing fits. */
	function tolerate(t) {
		var fs = forms(t);
		return Promise.all(fs.map(shard)).then(function (shs) {
			var got = { ids: [], total: 0, cut: false, terms: [] };
			fs.forEach(function (f, i) {
				var g = gather(shs[i], [f], false);
				if (g.terms.length) got = merge(got, g);
			});
			if (got.terms.length || t.length < 4 || !/[a-z]/.test(t)) return got;
			return shard(t).then(function (sh) {
				var near = Object.keys(sh).filter(function (w) { return plain(w) && oneEdit(t, w); });
				return gather(sh, near.sort(), false);
			});
		});
	}
	function merge(a, b) {
		var have = {}, ids = a.ids.concat(b.ids).filter(function (id) {
			return have[id] ? false : (have[id] = 1);
		}).sort(byKind), lev = {};
		[a, b].forEach(function (g) {
			Object.keys(g.lev || {}).forEach(function (id) {
				if (!(lev[id] >= g.lev[id])) lev[id] = g.lev[id];
			});
		});
		return { ids: ids, total: a.total + b.total, cut: a.cut || b.cut,
			terms: a.terms.concat(b.terms), lev: lev };
	}

	/* The documents whose id, key or name is the whole query (one word
	 * of more than one term), else those of every word of q, a word
	 * that finds nothing taken for its forms or near terms. A promise
	 * of {ids, partial, terms: for each word the terms it matched,
	 * prefix: for each word whether it matched as a prefix, fixed:
	 * [[word, terms]] the words taken for others, whole: the query,
	 * score: each document's (scores)}. */
	function match(q) {
		var ws = words(q), whole = q.trim().toLowerCase();
		var one = whole && !/\s/.test(whole) && ws.length > 1 ?
			lookup(whole, false) : Promise.resolve({ ids: [] });
		var m = { ids: [], partial: false, terms: ws.map(function (w) { return [w]; }),
			prefix: ws.map(function () { return false; }), fixed: [], whole: whole,
			score: {} };
		return one.then(function (w) {
			if (w.ids.length) { m.ids = w.ids; m.partial = w.cut; return m; }
			return Promise.all(ws.map(function (t, i) {
				var pre = i === ws.length - 1 && !/\s$/.test(q);
				m.prefix[i] = pre;
				return lookup(t, pre).then(function (r) {
					if (r.ids.length) return r;
					return tolerate(t).then(function (g) {
						if (!g.terms.length) return r;
						m.terms[i] = g.terms;
						m.prefix[i] = false;
						m.fixed.push([t, g.terms]);
						return g;
					});
				});
			})).then(function (rs) {
				var full = rs.filter(function (r) { return !r.cut; });
				var use = full.length > 0 ? full : rs, set = null;
				use.forEach(function (r) {
					if (set === null) { set = r.ids.slice(); return; }
					var have = {};
					r.ids.forEach(function (id) { have[id] = 1; });
					set = set.filter(function (id) { return have[id]; });
				});
				m.ids = set || [];
				m.partial = full.length === 0 && rs.some(function (r) { return r.cut; });
				scores(m, rs);
				return m;
			});
		});
	}

	/* Each candidate of m's score from the words' answers rs, higher
	 * first: 10 for each word a term of its title holds, 1 for each it
	 * holds whole (doc/site.md, "Search": a name above a mention, exact
	 * above prefix), before any record is loaded. */
	function scores(m, rs) {
		m.ids.forEach(function (id) {
			var s = 0;
			rs.forEach(function (r) {
				var v = r.lev ? r.lev[id] : undefined;
				if (v === undefined) return;
				s += (v >= 2 ? 10 : 0) + (v & 1);
			});
			m.score[id] = s;
		});
	}

	/* The URL of record r (layer code l, project p): as written, or
	 * [page] for page#id, or, as the index left it out, the
	 * manifest's template for l ("urls", of a record of a project or
	 * of none) filled in with the project's slug and r's id: the site
	 * makes its URLs in one place (gen/site/items.h, whose functions
	 * make the templates: site_search.c, search_urls_make),
	 * and this script knows no path of its own. */
	function url(r, l, p) {
		var u = r[6];
		if (typeof u === "string") return u;
		if (u) return u[0] + "#" + r[5];
		var t = man.urls[l][p[1] ? 0 : 1];
		return t.replace(/\{(p|id)\}/g, function (x, k) { return k === "p" ? p[1] : r[5]; });
	}

	/* The record of document id, its chunk loaded: [8 * layer + 4 *
	 * moved + flags, title, value, project, status (indexes into the
	 * chunk's tables), id, url when not rebuilt]
	 * (gen/search/search_index.h). */
	function record(id) {
		var c = chunks[chunkOf(id)];
		var r = c.r[slotOf(id) % man.chunk], l = r[0] >> 3, p = c.t.p[r[3]];
		return { n: id, kind: kindOf(id), title: r[1], value: r[2],
			project: p[0], url: url(r, l, p), layer: LAYERS[l], l: l, status: c.t.s[r[4]],
			flags: r[0] & 3, id: r[5] };
	}

	/* How well text's words meet word i of m: 2 a word equal to one of
	 * its terms, 1 a word its term starts (a prefix word), else 0. */
	function meets(ws, m, i) {
		var best = 0;
		ws.forEach(function (w) {
			m.terms[i].forEach(function (t) {
				if (w === t) best = 2;
				else if (best < 1 && m.prefix[i] && w.lastIndexOf(t, 0) === 0) best = 1;
			});
		});
		return best;
	}

	/* Record r's rank key for match m, compared in order, lower first:
	 * its id the query; words met in the title (or all of them in the
	 * project's name: the query names the project), of those met whole;
	 * unless those met them all, words met in the value, of those met
	 * whole; its title the query's words and no more; a project's own
	 * page before its rows; its kind (conflicts, checks, facts: they
	 * keep their lead where they match as well); its score from the
	 * shards (scores: a word met in a hidden title's term, whole); words
	 * met in the title alone; its number. Sets r.met (a word met in the
	 * title or value) and r.top (every word met in the title, or the
	 * project's name). */
	function rank(r, m) {
		var tw = words(r.title), vw = words(r.value), pw = words(r.project);
		var th = 0, te = 0, vh = 0, ve = 0, ph = 0, pe = 0, t0, nw = m.terms.length;
		m.terms.forEach(function (ts, i) {
			var t = meets(tw, m, i), p = meets(pw, m, i), v = meets(vw, m, i);
			if (t) { th++; if (t === 2) te++; }
			if (p) { ph++; if (p === 2) pe++; }
			if (v) { vh++; if (v === 2) ve++; }
		});
		r.met = th + vh;
		t0 = th;
		if (ph === nw && pe >= te) { th = ph; te = pe; }
		r.top = th === nw;
		if (r.top) vh = ve = 0;
		return [r.id.toLowerCase() === m.whole ? 0 : 1, -th, -te, -vh, -ve,
			tw.join(" ") === words(m.whole).join(" ") ? 0 : 1, r.l === 5 ? 0 : 1, r.kind,
			-(m.score[r.n] || 0), -t0, r.n];
	}
	function byRank(a, b) {
		for (var i = 0; i < a.key.length; i++)
			if (a.key[i] !== b.key[i]) return a.key[i] - b.key[i];
		return 0;
	}

	function filters() {
		var f = {};
		FACETS.forEach(function (k) { f[k] = $("search-" + k).value; });
		return f;
	}

	/* 1 when document id may pass the layer filter f, by the kind its
	 * number ends in, before its chunk is loaded. */
	function kindPasses(id, f) {
		var k = f.layer === "conflict" ? 0 : f.layer === "check" ? 1 : f.layer ? 2 : -1;
		return k < 0 || kindOf(id) === k;
	}

	/* Record r's value of facet k, as the facet's menu says it. */
	function facetOf(r, k) {
		if (k === "disputed" || k === "checked")
			return r.flags & FLAGS[k] ? "1" : "0";
		return r[k];
	}
	/* 1 when r passes every filter of f but skip's. */
	function passes(r, f, skip) {
		return FACETS.every(function (k) {
			return k === skip || !f[k] || facetOf(r, k) === f[k];
		});
	}

	/* 1 when the chunk of every match of st that may pass f's layer (of
	 * every match, without f) is loaded: their records are then all
	 * known (the menus count over every match). */
	function full(st, f) {
		return st.ids.every(function (id) {
			return chunks[chunkOf(id)] !== undefined || (f && !kindPasses(id, f));
		});
	}
	/* The records of st's matches whose chunks are loaded, whether
	 * ranked yet or not: what the menus count. */
	function known(st) {
		return st.ids.filter(function (id) { return chunks[chunkOf(id)] !== undefined; }).map(record);
	}
	/* A promise of the chunks of every match of st that may pass f's
	 * layer loaded (once each; ALL at most, the best first, order): what
	 * the menus and a filter need to count and reach every match, not
	 * only those of the batches ranked so far. */
	function loadAll(st, f) {
		return Promise.all(order(st, f).filter(function (c) { return !chunks[c]; }).slice(0, ALL)
			.map(function (c) { return load("search/d-" + c + ".js"); }));
	}

	/* Each facet's menu: its values with how many of the records
	 * recs pass the other filters and hold it; the value chosen kept,
	 * the fixed values (layer, yes/no) always there. */
	function facets(recs, f) {
		FACETS.forEach(function (k) {
			var sel = $("search-" + k), n = {}, fixed = k !== "project" && k !== "status";
			recs.forEach(function (r) {
				if (!passes(r, f, k)) return;
				var v = facetOf(r, k);
				n[v] = (n[v] || 0) + 1;
			});
			var vals = fixed ? Array.prototype.slice.call(sel.options, 1).map(function (o) { return o.value; }) :
				Object.keys(n).sort(function (a, b) { return a.localeCompare(b, "en", { numeric: true }); });
			if (f[k] && vals.indexOf(f[k]) < 0) vals.push(f[k]);
			var names = { "1": "yes", "0": "no" };
			while (sel.options.length > 1) sel.remove(1);
			vals.forEach(function (v) {
				var o = document.createElement("option");
				o.value = v;
				o.textContent = (fixed && names[v] || v) + " (" + (n[v] || 0) + ")";
				sel.appendChild(o);
			});
			sel.value = f[k];
		});
	}

	function el(tag, cls, text) {
		var e = document.createElement(tag);
		if (cls) e.className = cls;
		if (text !== undefined) e.textContent = text;
		return e;
	}

	/* text into parent as text nodes, its words that meet a word of m
	 * in <mark> elements. */
	function marked(parent, text, m) {
		var at = 0, x;
		WORD.lastIndex = 0;
		while ((x = WORD.exec(text)) !== null) {
			var w = [lower(x[0])], hit = m.terms.some(function (ts, i) { return meets(w, m, i); });
			if (!hit) continue;
			if (x.index > at) parent.appendChild(document.createTextNode(text.slice(at, x.index)));
			parent.appendChild(el("mark", null, x[0]));
			at = x.index + x[0].length;
		}
		if (at < text.length) parent.appendChild(document.createTextNode(text.slice(at)));
	}

	/* A result: its title and value, the query's words marked; where
	 * neither holds them, where they are; its marks, project, kind and
	 * status. The id is the link's title (and its URL's). */
	function show(r, m) {
		var li = el("li"), a = el("a");
		a.href = root + r.url;
		a.title = "id " + r.id;
		marked(a, r.title || r.id, m);
		li.appendChild(a);
		if (r.value) {
			li.appendChild(document.createTextNode(": "));
			marked(li.appendChild(el("span", "search-value")), r.value, m);
		}
		if (r.flags & FLAGS.disputed) li.appendChild(el("span", "search-flag", "\u26a0 disputed"));
		if (r.flags & FLAGS.checked) li.appendChild(el("span", "search-flag", "open check"));
		var kind = r.kind === 0 ? "conflict" : r.kind === 1 ? "check" : r.layer;
		var meta = [r.project, kind, r.status];
		if (!r.met && r.id.toLowerCase() !== m.whole) meta.push("found in " + HIDDEN[r.l]);
		li.appendChild(el("span", "search-meta", meta.join(" \u00b7 ")));
		list.appendChild(li);
	}

	/* The chunks of st's candidates not ranked yet that pass f's layer,
	 * in the order a batch loads them: that of the best score first
	 * (scores: over every match, whatever its kind), of one score those
	 * of conflicts, then of checks, then of facts (they keep their lead
	 * where they match as well), of a kind the one that holds the most
	 * candidates of the score (where the query's words gather: a
	 * project's documents sit together), then by number. */
	function order(st, f) {
		var n = {}, best = {}, first = {}, cs = [], sc = st.m.score;
		st.ids.forEach(function (id) {
			if (st.done[id] || !kindPasses(id, f)) return;
			var c = chunkOf(id), s = sc[id] || 0;
			if (best[c] === undefined) { best[c] = s; n[c] = 0; first[c] = id; cs.push(c); }
			if (s > best[c]) { best[c] = s; n[c] = 0; }
			if (s === best[c]) n[c]++;
		});
		return cs.sort(function (a, b) {
			return best[b] - best[a] || a % 4 - b % 4 || n[b] - n[a] || first[a] - first[b];
		});
	}

	/* Load a batch of chunks of st's candidates, ROUND at a time (at
	 * most BATCH), until PAGE of their records meet every word of the
	 * query in their title (or project's name: rank's r.top), and rank
	 * the batch onto st.order. A promise. */
	function batch(st, f) {
		var add = [], loaded = 0, all = full(st, f);
		function round() {
			/* Every chunk loaded already: the one batch ranks them all. */
			var want = all ? order(st, f) : order(st, f).slice(0, Math.min(ROUND, BATCH - loaded)), seen = {};
			want.forEach(function (c) { seen[c] = 1; });
			loaded += want.length;
			return Promise.all(want.map(function (c) { return load("search/d-" + c + ".js"); })).then(function () {
				st.ids.forEach(function (id) {
					if (st.done[id] || !seen[chunkOf(id)] || !kindPasses(id, f)) return;
					st.done[id] = 1;
					var r = record(id);
					r.key = rank(r, st.m);
					add.push(r);
				});
				var strong = add.filter(function (r) { return r.top; }).length;
				st.left = order(st, f).length > 0;
				if (st.left && loaded < BATCH && strong < PAGE && st === state) return round();
				add.sort(byRank);
				st.order = st.order.concat(add);
			});
		}
		return round();
	}

	/* Show the next page of state's results: PAGE of the ranked records
	 * that pass the filters, loading another batch when those ranked
	 * run out before any is shown (one batch a page at most, two when a
	 * filter is chosen: the bytes a page loads stay bounded, 300 kB at
	 * 1,000,000 facts; "More" goes on through the matches, past the
	 * chunks loaded), as many as it takes when every chunk is loaded
	 * already. */
	function page() {
		var st = state, f = filters(), loads = 0;
		var most = FACETS.some(function (k) { return f[k]; }) ? 2 : 1;
		function step() {
			if (st !== state) return;
			var shown = 0;
			while (st.pos < st.order.length && shown < PAGE) {
				var r = st.order[st.pos++];
				if (!passes(r, f)) continue;
				show(r, st.m);
				shown++;
				st.shown++;
			}
			if (shown < PAGE && st.left && (full(st, f) || shown === 0 && loads++ < most)) {
				return batch(st, f).then(step);
			}
			tell(st, f);
		}
		return step();
	}

	/* The query whose matches' chunks a menu opened loads (countAll),
	 * the promise of their end, and whether it came. */
	var counting = { q: null, p: Promise.resolve(), done: false };
	/* Count over every match: load the chunks of all of state's matches
	 * (the query's own bytes stay bounded; a reader who opens a menu
	 * asks for its counts) and redo the menus and the count. A promise. */
	function countAll() {
		var st = state, c;
		if (!st || !st.m || full(st) || counting.q === st.q) return counting.p;
		c = counting = { q: st.q, done: false };
		c.p = loadAll(st, {}).then(function () {
			c.done = true;
			if (state && state.m && state.q === st.q) tell(state, filters());
		});
		return c.p;
	}

	/* The count: how many results, the words taken for others, how
	 * many shown, and what the filters' counts cover. */
	function tell(st, f) {
		var recs = known(st), pass = 0, all = recs.length === st.ids.length;
		facets(recs, f);
		recs.forEach(function (r) { if (passes(r, f)) pass++; });
		more.hidden = st.pos >= st.order.length && !st.left;
		var n = st.ids.length, filtered = FACETS.some(function (k) { return f[k]; });
		var fix = st.m.fixed.map(function (x) {
			return "\u201c" + x[1].join("\u201d or \u201c") + "\u201d (nothing for \u201c" + x[0] + "\u201d)";
		});
		var s = fix.length ? "Showing results for " + fix.join(", ") + ". " : "";
		s += n === 0 ? "No results" : n === 1 ? "1 result" : n + " results";
		if (st.m.partial) s += " (common words: a sample)";
		if (filtered && all) s += "; " + pass + " pass the filters, " + st.shown + " shown";
		else if (filtered) s += "; " + st.shown + " shown that pass the filters";
		else if (n > st.shown) s += "; " + st.shown + " shown";
		if (!all) s += "; the filters count the " + recs.length + " loaded" +
			(counting.q === st.q && counting.done ? "" : ", every match once one is opened");
		count.textContent = s + ".";
	}

	function run() {
		var q = input.value;
		list.textContent = "";
		more.hidden = true;
		if (!words(q).length) { count.textContent = ""; state = null; return Promise.resolve(); }
		var st = state = { q: q, ids: [], order: [], pos: 0, done: {}, left: false, shown: 0, m: null };
		/* A filter chosen while the menus count every match of this query
		 * waits for their chunks, and then reaches all of them. */
		var wait = counting.q === q ? counting.p : Promise.resolve();
		return wait.then(function () { return load("search/index.js"); }).then(function () { return match(q); }).then(function (m) {
			if (st !== state) return;
			st.ids = m.ids;
			st.m = m;
			/* A project, status or yes/no chosen reaches every match: their
			 * chunks first (a layer is known from the numbers: batches).
			 * Not for a sample of a word too common to list whole (at
			 * 1,000,000 facts, "key": hundreds of chunks, megabytes, before
			 * a first result): batch by batch, as without a filter. */
			var f = filters(), some = !m.partial &&
				FACETS.some(function (k) { return k !== "layer" && f[k]; });
			return (some ? loadAll(st, f) : Promise.resolve()).then(function () { return batch(st, f); }).then(page);
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
	$("search-facets").addEventListener("focusin", countAll);
	more.addEventListener("click", page);
	var q = /[?&]q=([^&]*)/.exec(location.search);
	if (q) { input.value = decodeURIComponent(q[1].replace(/\+/g, " ")); run(); }
	S.run = run;
})();
