/*
 * env.h: numbers from the environment (timeouts, thread counts).
 */
#ifndef MIRROR_ENV_H
#define MIRROR_ENV_H

/*
 * The decimal integer in environment variable name when it is set, is
 * nothing but that number and lies in [min, max]; else dflt. A bad
 * value is ignored rather than refused: these only tune behaviour.
 */
long env_long(const char *name, long min, long max, long dflt);

#endif
