#!/bin/sh
# The shape of the source tree (doc/architecture.md), checked from the
# code's own includes and calls by tests/tools/house.py: stages include
# only the stages below them, no circle of files, at most 12 .c files a
# folder, no function over 80 lines, no state in static storage but
# what doc/development.md lists. Then the checker itself on a small
# tree with one planted fault of each kind, so it is seen to catch them.
. "$MIRROR_TOP/tests/e2e/lib.sh"

house() {
	python3 "$MIRROR_TOP/tests/tools/house.py" "$@" >"$T/out" 2>"$T/err"
	RC=$?
}

house "$MIRROR_TOP"
expect_status "the tree has the shape doc/architecture.md draws" 0
expect "... and the checker saw every stage" \
    sh -c "grep -c '^core/\|^gen/' '$T/out' | grep -qx 15"

# A scratch tree: util <- store, and a clean pair of files in util.
mk() {
	mkdir -p "$T/h/$(dirname "$1")"
	printf '%s\n' "$2" >"$T/h/$1"
}
fresh_tree() {
	rm -rf "$T/h"
	mk core/util/a.h '#include "util/b.h"'
	mk core/util/a.c '#include "util/a.h"
int
a_one(void)
{
	return b_one();
}'
	mk core/util/b.h 'int b_one(void);'
	mk core/util/b.c '#include "util/b.h"
int
b_one(void)
{
	return 1;
}'
	mk core/store/s.c '#include "util/a.h"'
	for d in core/sweep gen/output gen/render gen/git gen/serve gen/site \
	    gen/pipeline gen/cli; do
		mkdir -p "$T/h/$d"
	done
}

fresh_tree
house "$T/h"
expect_status "a clean scratch tree passes" 0

fresh_tree
mk core/util/c.c '#include "store/s.h"'
mk core/store/s.h 'int s_one(void);'
house "$T/h"
expect_status "an include running up a stage fails" 1
expect "... and names the file, the line and the rule" \
    grep -q '^house: core/util/c.c:1: includes store/s.h, but core/util may include only itself' "$T/out"

fresh_tree
mk core/util/b.c '#include "util/b.h"
int
b_one(void)
{
	return a_one();
}'
house "$T/h"
expect_status "a circle of two files (by calls) fails" 1
expect "... and names the circle" \
    grep -q '^house: circle of 2 files: core/util/a.c -> core/util/b.c' "$T/out"

fresh_tree
body=$(i=0; while [ $i -lt 79 ]; do echo '	(void)0;'; i=$((i + 1)); done)
mk core/util/b.c "#include \"util/b.h\"
int
b_one(void)
{
$body
}"
house "$T/h"
expect_status "a function of 82 lines fails" 1
expect "... and names it with its length" \
    grep -q '^house: core/util/b.c:3: b_one is 82 lines (at most 80)' "$T/out"

fresh_tree
mk core/util/b.c '#include "util/b.h"
int
b_one(int a, int b, int c, int d, int e,
    int (*f)(int, int), int g)
{
	return a + b + c + d + e + f(g, g);
}
int
on_request(int a, int b, int c, int d, int e, int f, int g)
{
	return a + b + c + d + e + f + g;
}'
house "$T/h"
expect_status "a function of seven parameters fails" 1
expect "... and names it with its count, but not a library's callback" \
    sh -c "grep -q '^house: core/util/b.c:3: b_one takes 7 parameters (at most 6)\$' '$T/out' &&
        ! grep -q 'on_request' '$T/out'"

# Threads start in core/sys/jobs.c alone (named, on the build's
# allocation): a call of pthread_create elsewhere fails, one in a
# comment or a string does not.
fresh_tree
mk core/util/b.c '#include "util/b.h"
/* not pthread_create(here) */
int
b_one(void)
{
	const char *s = "pthread_create(";
	pthread_t t;

	return pthread_create(&t, 0, 0, (void *)s);
}'
house "$T/h"
expect_status "a thread started with pthread_create fails" 1
expect "... and names the file and the line of the call, and no other" \
    sh -c "grep -q '^house: core/util/b.c:9: calls pthread_create; start a thread with jobs_thread_start (core/sys/jobs.c)\$' '$T/out' &&
        test \"\$(grep -c 'pthread_create' '$T/out')\" = 1"
mkdir -p "$T/h/core/sys"
mk core/sys/jobs.c 'int
j(void)
{
	return pthread_create(0, 0, 0, 0);
}'
mk core/util/b.c '#include "util/b.h"
int
b_one(void)
{
	return 1;
}'
house "$T/h"
expect_status "... but core/sys/jobs.c may call it" 0

fresh_tree
i=0
while [ $i -lt 13 ]; do mk "gen/output/o$i.c" '/* empty */'; i=$((i + 1)); done
house "$T/h"
expect_status "a folder of 13 .c files fails" 1
expect "... and names the folder" \
    grep -q '^house: gen/output: 13 .c files (at most 12)' "$T/out"

# The doc's "Includes" sentences are checked against the code: a stage
# whose sentence names another set fails.
fresh_tree
mk doc/architecture.md '- **`core/util/`** owns helpers. Includes nothing of ours.
- **`core/store/`** owns the store. Includes
  `core/sys` (opening files).'
house "$T/h"
expect_status "an Includes sentence of doc/architecture.md that drifted fails" 1
expect "... and names the stage, what its code includes and what the doc says" \
    sh -c "grep -q '^house: doc/architecture.md: core/store includes core/util, not core/sys\$' '$T/out' &&
        ! grep -q 'core/util includes' '$T/out'"

fresh_tree
mk gen/extra/x.c '/* stray */'
house "$T/h"
expect_status "a source file outside the stage folders fails" 1

# Every stage folder is drawn in doc/architecture.md's picture and has a
# row in doc/development.md's layout table: a folder added without them
# fails, named.
fresh_tree
mk doc/architecture.md '```
gen/cli gen/serve gen/pipeline gen/site gen/git gen/gitlib gen/words
gen/render gen/output core/sweep core/rules core/store core/sys core/util
```'
mk doc/development.md '| folder | holds |
|---|---|'
for st in core/util core/sys core/store core/rules core/sweep gen/output \
    gen/render gen/words gen/git gen/gitlib gen/search gen/site \
    gen/pipeline gen/serve gen/cli; do
	[ "$st" = gen/pipeline ] || printf '| `%s/` | a stage |\n' "$st" \
	    >>"$T/h/doc/development.md"
done
house "$T/h"
expect_status "a stage missing from the docs' picture or layout fails" 1
expect "... and names the doc and the stage, each" \
    sh -c "grep -q '^house: doc/architecture.md: the picture does not draw gen/search\$' '$T/out' &&
        grep -q '^house: doc/development.md: the layout table has no row for gen/pipeline/\$' '$T/out' &&
        test \$(grep -c 'the picture does not draw\\|has no row for' '$T/out') = 2"

# State in static storage the shipped code may change is listed in
# doc/development.md's "File-scope state", each object with its file:
# one left out fails, named; a const table, a declaration, a function
# pointer parameter and what only the test build compiles do not count.
state_tree() {
	fresh_tree
	mk core/util/b.c '#include "util/b.h"
static const char *const names[] = { "a", "b" };
static const int sizes[2] = { 1, 2 };
static const char *known[] = { "x" };
static int (*hook)(int);
static int seen, count = 1;
#ifdef MIRROR_TEST_HOOKS
int b_test_hook;
#endif
typedef int b_fn(void);
b_fn b_two, b_three;
int b_each(int (*fn)(int), int n);
int
b_one(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	static const char *const words[] = { "w" };

	return names[0][0] + sizes[0] + (known[0] != 0) + (hook != 0) +
	    seen + count + words[0][0] + (int)sizeof(once);
}'
	mkdir -p "$T/h/doc"
	printf '| folder | holds |\n|---|---|\n' >"$T/h/doc/development.md"
	for st in core/util core/sys core/store core/rules core/sweep \
	    gen/output gen/render gen/words gen/git gen/gitlib gen/search \
	    gen/site gen/pipeline gen/serve gen/cli; do
		printf '| `%s/` | a stage |\n' "$st" >>"$T/h/doc/development.md"
	done
}

state_tree
house "$T/h"
expect_status "a mutable static the list leaves out fails" 1
expect "... each object named with its file and line, and nothing const" \
    sh -c "grep -q '^house: core/util/b.c:4: known is file-scope state' '$T/out' &&
        grep -q '^house: core/util/b.c:5: hook is file-scope state' '$T/out' &&
        grep -q '^house: core/util/b.c:6: seen is file-scope state' '$T/out' &&
        grep -q '^house: core/util/b.c:6: count is file-scope state' '$T/out' &&
        grep -q \"^house: core/util/b.c:16: once is a function's static state\" '$T/out' &&
        test \$(grep -c ' state the shipped code may change' '$T/out') = 5"

state_tree
printf '\n### File-scope state\n\nWhy.\n\n%s\n%s\n' \
    '- `core/util/b.c`: `known`, `hook`, `seen`, `count`,' \
    '  `once`: the reasons.' >>"$T/h/doc/development.md"
house "$T/h"
expect_status "the same statics, listed, pass" 0

printf -- '- `core/util/a.c`: `gone`: no more.\n' >>"$T/h/doc/development.md"
house "$T/h"
expect_status "a listed object the code does not have fails" 1
expect "... and names it" \
    grep -q '^house: doc/development.md: "File-scope state" lists gone in core/util/a.c, which the code does not have$' "$T/out"
