/*
 * site_atoz.h: the page family of the A-Z index (see families.h): every
 * trusted state key and entity name of every project, by first letter,
 * each linking to its facts, so a fact can be found without search or
 * JavaScript.
 */
#ifndef MIRROR_SITE_ATOZ_H
#define MIRROR_SITE_ATOZ_H

#include "site/page.h"

/* keys/index (the letters) and keys/<letter> (a page per first letter
 * that has names). Returns 0 or < 0 with err set. */
int atoz_pages(const struct page_ctx *pc, mirror_error *err);

/* Work counter: the rows of letter pages whose data was built, those of
 * the pages a build renders; a page the last build wrote from the same
 * rows costs none (sys/work.h; --json's work.atoz_rows). */
extern struct work_count atoz_rows_shown;

/* Work counter: the store's rows the family stepped (counted in the
 * render's rows too): a whole read's every name (and the count of
 * them), an update's the changed projects' rows alone (--json's
 * work.atoz_store_rows). */
extern struct work_count atoz_rows_read;

/* Work counter: the rows the family read of those the last build kept
 * in the cache (sys/work.h; --json's work.atoz_kept_rows): an update's,
 * those of the pages its changed rows are on (twice: checked, then
 * made), at most ATOZ_PAGE a page; a walk of every page the last build
 * kept (when a change moves a row to another page) every row, twice. */
extern struct work_count atoz_rows_kept;

#endif
