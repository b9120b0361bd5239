/*
 * normalize.h: the comparison rules of SPEC section 3.3.
 *
 * Two claimed values are the same exactly when their norm_value strings
 * are equal; two slot names (keys, topics, targets) are the same exactly
 * when their norm_ident strings are equal. Both are pure functions of
 * their input, so the sweep can compare hashes of them.
 */
#ifndef MIRROR_NORMALIZE_H
#define MIRROR_NORMALIZE_H

/*
 * Identifier form: ASCII lower case, every run of characters other than
 * a-z and 0-9 becomes one '_', trimmed of '_' ("Lateral Support" ->
 * "lateral_support"). s may be NULL (gives ""). Returns a new string the
 * caller must free.
 */
char *norm_ident(const char *s);

/*
 * Value form: ASCII letters case-folded, whitespace collapsed and
 * trimmed, surrounding quotes and a trailing period dropped, every
 * number written canonically and set apart from a unit glued to it
 * ("4.80kg" -> "4.8 kg", "-0" -> "0", ".5" -> "0.5"). No tolerance:
 * 4.8 and 4.82 stay different. s may be NULL (gives ""). Returns a new
 * string the caller must free.
 */
char *norm_value(const char *s);

/*
 * Reduce a lower-case English word to its singular, in place, with a few
 * suffix rules ("workflows" -> "workflow", "policies" -> "policy",
 * "boxes" -> "box"); words ending in -ss, -us, -is are left alone.
 */
void norm_singular(char *word);

#endif
