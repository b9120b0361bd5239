#!/bin/sh
# publish.sh: what CI runs to publish the Human Mirror. The GitHub
# Actions workflow and the GitLab CI job in this directory call only this
# script, and tests/e2e/t_publish.sh runs it, so what is tested is what
# CI does.
#
#   sh site-example/ci/publish.sh [STEP...]      (default: deps make site)
#
# Steps, run in the order given:
#   deps    install the Debian packages mirror needs (scripts/install-deps.sh;
#           apt-get as root, else sudo; a no-op when all are there)
#   make    build mirror from the source tree ($MIRROR_SRC) with make
#   site    sweep the store and render the site into $MIRROR_OUT; open
#           conflicts do not stop it ("flag, never block")
#   branch  the same render, committed to branch $MIRROR_BRANCH of the
#           repository $MIRROR_REPO in the same run, and pushed to
#           $MIRROR_REMOTE (the branch is fetched from there first, so
#           history continues). Use it instead of site, not after it: one
#           render gives both the site and the commit.
#   check   exit 4 when conflicts are open: an optional gate. It reads
#           $MIRROR_OUT/api/health.json when a site is there (so it needs
#           neither the binary nor the store: a later CI job can run it on
#           the Pages artifact), else runs mirror sweep --check.
#
# The clock: when SOURCE_DATE_EPOCH is not set, it is taken from the last
# commit of the checkout (git log -1 --format=%ct), else from the store
# file's modification time. Memories expire against it and the mirror
# commit is dated by it, so rebuilding an unchanged checkout gives the
# same site and the same commit (none: the branch already holds it). Set
# SOURCE_DATE_EPOCH yourself to choose another clock.
#
# Environment (all optional):
#   MIRROR_SRC        mirror's source tree                   (.)
#   MIRROR_BIN        the mirror binary         ($MIRROR_SRC/build/mirror)
#   MIRROR_CONFIG     a mirror.ini; its settings apply where the variables
#                     below are not set
#   MIRROR_STORE      the fact store
#   MIRROR_STORE_SQL  SQL to create the store from when it does not exist
#                     (the bundled example keeps its store as SQL)
#   MIRROR_OUT        the site directory                     (public)
#   MIRROR_BASE_URL   where the site is served, for absolute URLs in
#                     sitemap.xml and feed.xml (pages stay relative)
#   MIRROR_TITLE      the site's title
#   MIRROR_HOSTING    hosts the site must fit, e.g. github-pages: the
#                     build fails (exit 5) before the upload when it
#                     passes one of their limits (--check-hosting)
#   MIRROR_REPO       the git repository to commit to         (.)
#   MIRROR_BRANCH     the branch                              (mirror)
#   MIRROR_AUTHOR     "Name <email>" of the commits (else git config)
#   MIRROR_REMOTE     remote name or URL to fetch and push    (origin);
#                     empty: commit only, push nothing
#
# Exit status: 1 for an unknown step, 3 when the remote's branches cannot
# be read (before anything is committed), 4 from check while conflicts
# are open, else the failing command's (mirror: 1 usage, 2 bad input,
# 3 I/O or git, 5 the site passes a limit of MIRROR_HOSTING's hosts).
set -eu

src=${MIRROR_SRC:-.}
bin=${MIRROR_BIN:-$src/build/mirror}
out=${MIRROR_OUT:-public}
repo=${MIRROR_REPO:-.}
branch=${MIRROR_BRANCH:-mirror}
remote=${MIRROR_REMOTE-origin}

say() { printf 'publish: %s\n' "$*"; }

# set_epoch: SOURCE_DATE_EPOCH from the checkout's last commit or the
# store's mtime, unless the environment sets it.
set_epoch() {
	[ -n "${SOURCE_DATE_EPOCH:-}" ] && return 0
	from=
	if t=$(git log -1 --format=%ct 2>/dev/null) && [ -n "$t" ]; then
		from="the last commit"
	elif [ -n "${MIRROR_STORE:-}" ] && t=$(stat -c %Y "$MIRROR_STORE" \
	    2>/dev/null); then
		from="the store's modification time"
	else
		return 0
	fi
	SOURCE_DATE_EPOCH=$t
	export SOURCE_DATE_EPOCH
	say "SOURCE_DATE_EPOCH=$t (from $from)"
}

# mirror_args: the options every mirror command here gets, as "$@".
# Only what is set is passed, so a mirror.ini fills in the rest.
mirror_cmd() {
	cmd=$1
	shift
	set -- "$cmd" "$@"
	[ -n "${MIRROR_STORE:-}" ] && set -- "$@" --store "$MIRROR_STORE"
	if [ -n "${MIRROR_CONFIG:-}" ]; then
		"$bin" --config "$MIRROR_CONFIG" "$@"
	else
		"$bin" "$@"
	fi
}

# A store kept as SQL (like the example) is created on first use.
ensure_store() {
	[ -n "${MIRROR_STORE_SQL:-}" ] || return 0
	: "${MIRROR_STORE:?MIRROR_STORE_SQL needs MIRROR_STORE}"
	[ -e "$MIRROR_STORE" ] && return 0
	mkdir -p "$(dirname "$MIRROR_STORE")"
	say "creating $MIRROR_STORE from $MIRROR_STORE_SQL"
	"$bin" init --store "$MIRROR_STORE" --quiet
	sqlite3 -bail "$MIRROR_STORE" <"$MIRROR_STORE_SQL"
}

# build ARGS: mirror build with the site options from the environment.
build() {
	set -- --out "$out" "$@"
	[ -n "${MIRROR_BASE_URL:-}" ] && set -- "$@" --base-url "$MIRROR_BASE_URL"
	[ -n "${MIRROR_TITLE:-}" ] && set -- "$@" --title "$MIRROR_TITLE"
	[ -n "${MIRROR_HOSTING:-}" ] &&
		set -- "$@" --check-hosting "$MIRROR_HOSTING"
	mirror_cmd build "$@"
}

step_deps() {
	sh "$src/scripts/install-deps.sh" --yes
}

step_make() {
	make -C "$src" -j2
}

step_site() {
	ensure_store
	set_epoch
	build
}

step_branch() {
	# Continue the branch's history from the remote: fetch its tip into
	# the local branch (never the checked-out one: mirror refuses that
	# branch, and so does git fetch).
	# An unreachable remote stops here, before anything is committed:
	# a commit on a stale tip would only be refused by the push.
	if [ -n "$remote" ]; then
		st=0
		git -C "$repo" ls-remote --exit-code --heads "$remote" \
		    "refs/heads/$branch" >/dev/null || st=$?
		case $st in
		0) git -C "$repo" fetch -q "$remote" \
		    "+refs/heads/$branch:refs/heads/$branch" ;;
		2) say "$remote has no branch $branch yet: starting it" ;;
		*)
			echo "publish: cannot read branches of $remote" \
			    "(git ls-remote exit $st)" >&2
			exit 3
			;;
		esac
	fi
	ensure_store
	set_epoch
	if [ -n "${MIRROR_AUTHOR:-}" ]; then
		build --repo "$repo" --branch "$branch" --author "$MIRROR_AUTHOR"
	else
		build --repo "$repo" --branch "$branch"
	fi
	if [ -n "$remote" ]; then
		# A fast-forward of the fetched tip; an unchanged site made
		# no commit, and the push then sends nothing.
		git -C "$repo" push -q "$remote" \
		    "refs/heads/$branch:refs/heads/$branch"
		say "pushed $branch to $remote"
	fi
}

step_check() {
	health="$out/api/health.json"
	if [ -f "$health" ]; then
		n=$(sed -n 's/^ *"open_conflicts_count": *\([0-9][0-9]*\).*/\1/p' \
		    "$health")
		case $n in
		'' | *[!0-9]*)
			echo "publish: no open_conflicts_count in $health" >&2
			exit 2
			;;
		0) say "no open conflicts ($health)" ;;
		*)
			echo "publish: $n open conflicts ($health)" >&2
			exit 4
			;;
		esac
		return 0
	fi
	ensure_store
	set_epoch
	mirror_cmd sweep --check
}

[ $# -gt 0 ] || set -- deps make site
for step in "$@"; do
	case $step in
	deps | make | site | branch | check) ;;
	*)
		echo "publish: unknown step '$step' (deps make site branch" \
		    "check)" >&2
		exit 1
		;;
	esac
done
for step in "$@"; do
	say "step $step"
	"step_$step"
done
