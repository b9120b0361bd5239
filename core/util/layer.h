/*
 * layer.h: the three layers of a store, as the program knows them.
 *
 * Inside the program a layer is an enum fact_layer; its names exist
 * only at the edges, and are written here once: the member kind a
 * store spells it with (conflict_members.member_kind, the rules'
 * violation_facts.layer, memory_audit.entity_kind, the JSON "kind" of a
 * conflict member) and the table it lives in. The words a reader is
 * shown are gen/words', the site's names in anchors and URLs
 * gen/site's (item_layer_name). Every stage speaks of layers, so this
 * vocabulary sits with the other shared types in core/util.
 */
#ifndef MIRROR_LAYER_H
#define MIRROR_LAYER_H

#include <stddef.h>
#include <string.h>

/* Layers, numbered by trust: state (3) over entity (2) over memory (1).
 * 0 is no layer. */
enum fact_layer {
	LAYER_MEMORY = 1,
	LAYER_ENTITY = 2,
	LAYER_STATE = 3
};

/* The member kinds, as a store spells them. */
#define LAYER_KIND_STATE "project_state"
#define LAYER_KIND_ENTITY "entity"
#define LAYER_KIND_MEMORY "memory"

/* The member kind of a layer: "project_state", "entity" or "memory";
 * "unknown" for a value outside the enum. A static string. */
static inline const char *
layer_kind(enum fact_layer layer)
{
	switch (layer) {
	case LAYER_STATE:
		return LAYER_KIND_STATE;
	case LAYER_ENTITY:
		return LAYER_KIND_ENTITY;
	case LAYER_MEMORY:
		return LAYER_KIND_MEMORY;
	}
	return "unknown";
}

/* The table of a layer: "project_state", "entities" or "memories";
 * "unknown" for a value outside the enum. A static string. */
static inline const char *
layer_table(enum fact_layer layer)
{
	switch (layer) {
	case LAYER_STATE:
		return "project_state";
	case LAYER_ENTITY:
		return "entities";
	case LAYER_MEMORY:
		return "memories";
	}
	return "unknown";
}

/* The layer whose member kind is kind, or 0 (no layer) for NULL or any
 * other text. */
static inline int
layer_of_kind(const char *kind)
{
	for (int l = LAYER_MEMORY; kind != NULL && l <= LAYER_STATE; l++)
		if (strcmp(kind, layer_kind((enum fact_layer)l)) == 0)
			return l;
	return 0;
}

#endif
