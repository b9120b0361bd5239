/*
 * bench_history.c: history_commit against the git command line.
 *
 *   bench_history [FILES]      (FILES defaults to 5000)
 *   bench_history --site DIR REPO
 *
 * The second form (tests/bench/bench.py) commits the existing site DIR
 * to branch mirror of the bare repository REPO, once, as 'mirror build
 * --repo' does, and prints the seconds history_commit took.
 *
 * Generates a site of FILES small pages (Markdown and HTML twins in 50
 * project directories), then times, each the median of three runs:
 *   first:  history_commit into a fresh bare repository, against
 *           'git init && git add -A && git commit' on a copy of the site;
 *   update: 1% of the pages changed, history_commit again, against
 *           'git add -A && git commit' in that work tree (which, unlike
 *           a fresh render, has git's stat cache on its side).
 * Prints both and the ratio; exits 1 when history_commit is not at least
 * twice as fast as git on the first build (the product target).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "git/history.h"

#define RUNS 3

static char top[] = "/tmp/mirror-bench.XXXXXX";

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int
run(const char *cmd)
{
	return system(cmd) == 0 ? 0 : -1;
}

/* Page i of the site, version v (v > 0 changes one line of it). */
static int
write_page(const char *site, int i, int v)
{
	static const char *const words[] = { "lateral", "support", "material",
	    "decision", "requirement", "mass", "cap", "parameter", "value",
	    "disputed", "conflict", "project", "state", "entity", "memory" };
	char path[4200];
	FILE *md, *html;
	unsigned seed = (unsigned)i * 2654435761u;
	int lines = 20 + i % 30;

	if (snprintf(path, sizeof(path), "%s/projects/p%02d", site,
	    i % 50) >= (int)sizeof(path))
		return -1;
	mkdir(path, 0777);
	if (snprintf(path, sizeof(path), "%s/projects/p%02d/page%04d.md",
	    site, i % 50, i) >= (int)sizeof(path))
		return -1;
	md = fopen(path, "w");
	if (snprintf(path, sizeof(path), "%s/projects/p%02d/page%04d.html",
	    site, i % 50, i) >= (int)sizeof(path)) {
		if (md != NULL)
			fclose(md);
		return -1;
	}
	html = fopen(path, "w");
	if (md == NULL || html == NULL)
		return -1;
	fprintf(md, "# Page %d\n\n", i);
	fprintf(html, "<h1>Page %d</h1>\n", i);
	for (int l = 0; l < lines; l++) {
		fprintf(md, "- fact %d.%d:", i, l);
		fprintf(html, "<li id=\"fact-%d-%d\">", i, l);
		for (int w = 0; w < 10; w++) {
			seed = seed * 1103515245u + 12345u;
			fprintf(md, " %s", words[(seed >> 16) % 15]);
			fprintf(html, " %s", words[(seed >> 16) % 15]);
		}
		if (l == 3 && v > 0) {
			fprintf(md, " (revised %d)", v);
			fprintf(html, " (revised %d)", v);
		}
		fputc('\n', md);
		fputs("</li>\n", html);
	}
	return (fclose(md) == 0) & (fclose(html) == 0) ? 0 : -1;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int
mirror_commit(const char *repo, const char *site, long t)
{
	struct history_request rq;
	struct history_result r;
	mirror_error err;

	memset(&rq, 0, sizeof(rq));
	rq.repo_path = repo;
	rq.branch = "mirror";
	rq.site_dir = site;
	rq.author = "Bench <bench@example.org>";
	rq.have_time = 1;
	rq.time = (time_t)t;
	rq.store_checksum = "0";
	if (history_commit(&r, &rq, &err) < 0 || !r.committed) {
		fprintf(stderr, "bench: %s\n", err.msg);
		return -1;
	}
	return 0;
}

/* bench_history --site DIR REPO: one timed history_commit. */
static int
site_commit(const char *site, const char *repo)
{
	double t = now();

	if (mirror_commit(repo, site, 1) < 0)
		return 2;
	printf("%.6f\n", now() - t);
	return fflush(stdout) == 0 ? 0 : 2;
}

int
main(int argc, char **argv)
{
	int files;

	if (argc == 4 && strcmp(argv[1], "--site") == 0)
		return site_commit(argv[2], argv[3]);
	files = argc > 1 ? atoi(argv[1]) : 5000;
	int pages;
	double m1[RUNS], m2[RUNS], g1[RUNS], g2[RUNS], t;
	char site[64], path[128];

	pages = files / 2;
	if (pages < 1 || mkdtemp(top) == NULL)
		return 2;
	setenv("HOME", top, 1);
	setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
	/* top is a short fixed template: these cannot be cut off. */
	if (snprintf(site, sizeof(site), "%s/site", top) >= (int)sizeof(site) ||
	    snprintf(path, sizeof(path), "%s/projects", site) >=
	    (int)sizeof(path))
		return 2;
	mkdir(site, 0777);
	mkdir(path, 0777);
	for (int i = 0; i < pages; i++)
		if (write_page(site, i, 0) < 0)
			return 2;
	if (chdir(top) != 0)
		return 2;
	for (int k = 0; k < RUNS; k++) {
		/* mirror: first build, then 1% of the pages change. */
		if (run("rm -rf bare.git && git init -q --bare bare.git") < 0)
			return 2;
		t = now();
		if (mirror_commit("bare.git", "site", 1) < 0)
			return 2;
		m1[k] = now() - t;
		for (int i = 0; i < pages; i += 100)
			write_page(site, i, k + 1);
		t = now();
		if (mirror_commit("bare.git", "site", 2) < 0)
			return 2;
		m2[k] = now() - t;
		for (int i = 0; i < pages; i += 100)
			write_page(site, i, 0);

		/* git: the same files in a work tree. */
		if (run("rm -rf wt && cp -R site wt") < 0)
			return 2;
		t = now();
		if (run("cd wt && git init -q && git add -A && git -c "
		    "user.name=B -c user.email=b@x commit -q -m first") < 0)
			return 2;
		g1[k] = now() - t;
		for (int i = 0; i < pages; i += 100)
			write_page("wt", i, k + 1);
		t = now();
		if (run("cd wt && git add -A && git -c user.name=B -c "
		    "user.email=b@x commit -q -m update") < 0)
			return 2;
		g2[k] = now() - t;
	}
	qsort(m1, RUNS, sizeof(double), cmp_double);
	qsort(m2, RUNS, sizeof(double), cmp_double);
	qsort(g1, RUNS, sizeof(double), cmp_double);
	qsort(g2, RUNS, sizeof(double), cmp_double);
	printf("history, %d files (median of %d):\n", pages * 2, RUNS);
	printf("  first build:  mirror %.3f s   git add -A && git commit "
	    "%.3f s   (%.1fx)\n", m1[1], g1[1], g1[1] / m1[1]);
	printf("  1%% changed:   mirror %.3f s   git add -A && git commit "
	    "%.3f s   (%.1fx)\n", m2[1], g2[1], g2[1] / m2[1]);
	if (snprintf(path, sizeof(path), "rm -rf '%s'", top) <
	    (int)sizeof(path))
		run(path);
	if (m1[1] * 2 > g1[1]) {
		printf("  FAIL: the first build is not twice as fast as git\n");
		return 1;
	}
	return 0;
}
