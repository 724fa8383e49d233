/* SPDX-License-Identifier: MIT */
/* otf2_read.c - an OTF2 archive through libotf2's reader: the global
 * definitions into the model of otf2_model.h, then the event files with a
 * reader per location (after its local definitions, for the mapping
 * tables and clock offsets libotf2 applies to its events), read in chunks
 * as otf2_map.c asks. */
#include "otf2_model.h"

#include <inttypes.h>
#include <otf2/otf2.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* libotf2 reports errors through a callback (by default printed on
 * stderr): the last one is kept, per thread, for our own message. */
static _Thread_local char last_error[256];

static OTF2_ErrorCode on_error(void *user, const char *file, uint64_t line, const char *function, OTF2_ErrorCode code,
                               const char *fmt, va_list va)
{
    char msg[200] = "";
    if (fmt) vsnprintf(msg, sizeof msg, fmt, va);
    snprintf(last_error, sizeof last_error, "%s%s%s", OTF2_Error_GetDescription(code), msg[0] ? ": " : "", msg);
    return code;
}

static const char *why(OTF2_ErrorCode st)
{
    return last_error[0] ? last_error : OTF2_Error_GetDescription(st);
}

const char *o2_string(const o2_archive *a, uint32_t ref)
{
    const char *s = g_hash_table_lookup(a->strings, GUINT_TO_POINTER(ref));
    return s ? s : "";
}

o2_loc *o2_loc_by_id(const o2_archive *a, uint64_t id)
{
    gpointer v = g_hash_table_lookup(a->loc_index, &id);
    return v ? &a->locs[GPOINTER_TO_SIZE(v) - 1] : NULL;
}

int64_t o2_ns(const o2_archive *a, uint64_t ticks)
{
    /* Signed: a location's corrected clock may start before the global
     * offset. 128 bits: ticks near 2^64 times 10^9. A clock in
     * nanoseconds (the common case) needs no division, which on 128 bits
     * is a library call on every record; the result is the same. */
    __int128 d = (__int128)ticks - (__int128)a->global_offset;
    if (a->tps == 1000000000) return (int64_t)d;
    return (int64_t)(d * 1000000000 / (__int128)a->tps);
}

int32_t o2_world_rank(const o2_archive *a, uint32_t comm, uint32_t local)
{
    const o2_comm *c = g_hash_table_lookup(a->comms, GUINT_TO_POINTER(comm));
    if (!c || !a->world) return -1;
    const o2_group *g = g_hash_table_lookup(a->groups, GUINT_TO_POINTER(c->group));
    if (!g || local >= g->n) return -1;
    /* A COMM_GROUP lists ranks in COMM_WORLD's location list (OTF2's
     * GroupType); a COMM_LOCATIONS group, location ids. */
    uint64_t m = g->members[local];
    if (g->type == OTF2_GROUP_TYPE_COMM_LOCATIONS) {
        for (uint32_t i = 0; i < a->world->n; i++)
            if (a->world->members[i] == m) return (int32_t)i;
        return -1;
    }
    return m < a->world->n ? (int32_t)m : -1;
}

/* ------------------------------------------------------------ requests */

static void reqmap_place(o2_reqmap *h, uint64_t k, void *v)
{
    uint32_t i = o2_reqmap_home(h, k);
    while (h->vals[i]) i = (i + 1) & (h->cap - 1);
    h->keys[i] = k;
    h->vals[i] = v;
    h->n++;
}

void o2_reqmap_put(o2_reqmap *h, uint64_t k, void *v)
{
    if (h->n) {
        for (uint32_t i = o2_reqmap_home(h, k); h->vals[i]; i = (i + 1) & (h->cap - 1))
            if (h->keys[i] == k) {
                h->vals[i] = v;
                return;
            }
    }
    if (2 * (h->n + 1) > h->cap) {
        o2_reqmap old = *h;
        h->cap = old.cap ? 2 * old.cap : 16;
        h->shift = old.cap ? old.shift - 1 : 60;
        h->keys = g_new(uint64_t, h->cap);
        h->vals = g_new0(void *, h->cap);
        h->n = 0;
        for (uint32_t i = 0; i < old.cap; i++)
            if (old.vals[i]) reqmap_place(h, old.keys[i], old.vals[i]);
        g_free(old.keys);
        g_free(old.vals);
    }
    reqmap_place(h, k, v);
}

void *o2_reqmap_take(o2_reqmap *h, uint64_t k)
{
    if (!h->n) return NULL;
    uint32_t mask = h->cap - 1, i = o2_reqmap_home(h, k);
    while (h->vals[i] && h->keys[i] != k) i = (i + 1) & mask;
    void *v = h->vals[i];
    if (!v) return NULL;
    /* Close the gap: move back each later entry of the run that may sit
     * no earlier than its home. */
    for (uint32_t j = (i + 1) & mask; h->vals[j]; j = (j + 1) & mask) {
        uint32_t home = o2_reqmap_home(h, h->keys[j]);
        if (((j - home) & mask) >= ((j - i) & mask)) {
            h->keys[i] = h->keys[j];
            h->vals[i] = h->vals[j];
            i = j;
        }
    }
    h->vals[i] = NULL;
    h->n--;
    return v;
}

void o2_reqmap_free(o2_reqmap *h)
{
    g_free(h->keys);
    g_free(h->vals);
    memset(h, 0, sizeof *h);
}

/* ------------------------------------------------------------ definitions */

static OTF2_CallbackCode def_clock(void *u, uint64_t resolution, uint64_t offset, uint64_t length, uint64_t realtime)
{
    o2_archive *a = u;
    a->tps = resolution;
    a->global_offset = offset;
    a->have_clock = true;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_string(void *u, OTF2_StringRef self, const char *s)
{
    o2_archive *a = u;
    if (g_hash_table_contains(a->strings, GUINT_TO_POINTER(self))) a->n_duplicate_defs++;
    g_hash_table_insert(a->strings, GUINT_TO_POINTER(self), g_strdup(s ? s : ""));
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_tree(void *u, OTF2_SystemTreeNodeRef self, OTF2_StringRef name, OTF2_StringRef cls,
                                  OTF2_SystemTreeNodeRef parent)
{
    o2_archive *a = u;
    uint32_t *v = g_new(uint32_t, 3);
    v[0] = name, v[1] = cls, v[2] = parent;
    g_hash_table_insert(a->tree, GUINT_TO_POINTER(self), v);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_lgroup(void *u, OTF2_LocationGroupRef self, OTF2_StringRef name,
                                    OTF2_LocationGroupType type, OTF2_SystemTreeNodeRef parent,
                                    OTF2_LocationGroupRef creator)
{
    o2_archive *a = u;
    uint32_t *v = g_new(uint32_t, 3);
    v[0] = name, v[1] = type, v[2] = parent;
    g_hash_table_insert(a->lgroups, GUINT_TO_POINTER(self), v);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_location(void *u, OTF2_LocationRef self, OTF2_StringRef name, OTF2_LocationType type,
                                      uint64_t n_events, OTF2_LocationGroupRef group)
{
    o2_archive *a = u;
    if (o2_loc_by_id(a, self)) {
        a->n_duplicate_defs++;
        return OTF2_CALLBACK_SUCCESS;
    }
    if (a->n_locs == a->cap_locs) {
        a->cap_locs = a->cap_locs ? 2 * a->cap_locs : 16;
        a->locs = g_realloc_n(a->locs, a->cap_locs, sizeof *a->locs);
    }
    o2_loc *l = &a->locs[a->n_locs++];
    memset(l, 0, sizeof *l);
    l->id = self;
    l->name = name;
    l->type = type;
    l->group = group;
    l->n_events_declared = n_events;
    l->defined = true;
    l->last_t = INT64_MIN;
    l->first_start = INT64_MAX;
    uint64_t *key = g_new(uint64_t, 1);
    *key = self;
    g_hash_table_insert(a->loc_index, key, GSIZE_TO_POINTER(a->n_locs));
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_region(void *u, OTF2_RegionRef self, OTF2_StringRef name, OTF2_StringRef canonical,
                                    OTF2_StringRef descr, OTF2_RegionRole role, OTF2_Paradigm paradigm,
                                    OTF2_RegionFlag flags, OTF2_StringRef file, uint32_t line, uint32_t end_line)
{
    o2_archive *a = u;
    if (g_hash_table_contains(a->regions, GUINT_TO_POINTER(self))) a->n_duplicate_defs++;
    o2_region *r = g_new0(o2_region, 1);
    *r = (o2_region){.name = name,
                     .paradigm = paradigm,
                     .role = role,
                     .file = file,
                     .line = line,
                     .category = O2_NONE,
                     .defined = true};
    g_hash_table_insert(a->regions, GUINT_TO_POINTER(self), r);
    return OTF2_CALLBACK_SUCCESS;
}

static void group_free(gpointer p)
{
    o2_group *g = p;
    if (g) g_free(g->members);
    g_free(g);
}

static OTF2_CallbackCode def_group(void *u, OTF2_GroupRef self, OTF2_StringRef name, OTF2_GroupType type,
                                   OTF2_Paradigm paradigm, OTF2_GroupFlag flags, uint32_t n, const uint64_t *members)
{
    o2_archive *a = u;
    o2_group *g = g_new0(o2_group, 1);
    g->type = (uint8_t)type;
    g->paradigm = (uint8_t)paradigm;
    g->n = n;
    g->members = g_memdup2(members, (gsize)n * sizeof *members);
    if (type == OTF2_GROUP_TYPE_COMM_LOCATIONS && paradigm == OTF2_PARADIGM_MPI) {
        /* MPI's COMM_WORLD in rank order: kept apart, for EZTrace gives it
         * the same id as the COMM_GROUP its communicator names. */
        if (a->world) {
            a->n_duplicate_defs++;
            group_free(a->world);
        }
        a->world = g;
        return OTF2_CALLBACK_SUCCESS;
    }
    o2_group *old = g_hash_table_lookup(a->groups, GUINT_TO_POINTER(self));
    if (old) {
        a->n_duplicate_defs++;
        /* A communicator's group is a COMM_GROUP: keep that one. */
        if (old->type == OTF2_GROUP_TYPE_COMM_GROUP && type != OTF2_GROUP_TYPE_COMM_GROUP) {
            group_free(g);
            return OTF2_CALLBACK_SUCCESS;
        }
    }
    g_hash_table_insert(a->groups, GUINT_TO_POINTER(self), g);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_comm(void *u, OTF2_CommRef self, OTF2_StringRef name, OTF2_GroupRef group,
                                  OTF2_CommRef parent, OTF2_CommFlag flags)
{
    o2_archive *a = u;
    if (g_hash_table_contains(a->comms, GUINT_TO_POINTER(self))) a->n_duplicate_defs++;
    o2_comm *c = g_new0(o2_comm, 1);
    *c = (o2_comm){.group = group, .name = name, .defined = true};
    g_hash_table_insert(a->comms, GUINT_TO_POINTER(self), c);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_clock_offset(void *u, OTF2_TimeStamp t, int64_t offset, double sd)
{
    ((o2_loc *)u)->n_clock_offsets++;
    return OTF2_CALLBACK_SUCCESS;
}

/* ------------------------------------------------------------ archive */

static void init_archive(o2_archive *a, const char *anchor)
{
    memset(a, 0, sizeof *a);
    a->anchor = g_strdup(anchor);
    a->tps = 1000000000;
    a->strings = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
    a->regions = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
    a->groups = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, group_free);
    a->comms = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
    a->tree = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
    a->lgroups = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
    a->loc_index = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
}

void o2_archive_free(o2_archive *a)
{
    for (size_t i = 0; i < a->n_locs; i++) {
        o2_loc *l = &a->locs[i];
        g_free(l->stack.v);
        g_free(l->wa_ones.v);
        g_free(l->recvq.v);
        o2_reqmap_free(&l->isend_req);
        o2_reqmap_free(&l->irecv_req);
        g_free(l->error);
    }
    g_free(a->locs);
    g_hash_table_destroy(a->strings);
    g_hash_table_destroy(a->regions);
    g_hash_table_destroy(a->groups);
    g_hash_table_destroy(a->comms);
    g_hash_table_destroy(a->tree);
    g_hash_table_destroy(a->lgroups);
    g_hash_table_destroy(a->loc_index);
    group_free(a->world);
    g_free(a->anchor);
    g_free(a->creator);
    memset(a, 0, sizeof *a);
}

static bool read_global_defs(OTF2_Reader *r, o2_archive *a, char *err, size_t err_len)
{
    OTF2_GlobalDefReader *gdr = OTF2_Reader_GetGlobalDefReader(r);
    if (!gdr) {
        snprintf(err, err_len, "%s: cannot read the global definitions: %s", a->anchor,
                 last_error[0] ? last_error : "no definitions file");
        return false;
    }
    OTF2_GlobalDefReaderCallbacks *cb = OTF2_GlobalDefReaderCallbacks_New();
    OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(cb, def_clock);
    OTF2_GlobalDefReaderCallbacks_SetStringCallback(cb, def_string);
    OTF2_GlobalDefReaderCallbacks_SetSystemTreeNodeCallback(cb, def_tree);
    OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(cb, def_lgroup);
    OTF2_GlobalDefReaderCallbacks_SetLocationCallback(cb, def_location);
    OTF2_GlobalDefReaderCallbacks_SetRegionCallback(cb, def_region);
    OTF2_GlobalDefReaderCallbacks_SetGroupCallback(cb, def_group);
    OTF2_GlobalDefReaderCallbacks_SetCommCallback(cb, def_comm);
    OTF2_Reader_RegisterGlobalDefCallbacks(r, gdr, cb, a);
    OTF2_GlobalDefReaderCallbacks_Delete(cb);
    uint64_t n = 0;
    last_error[0] = 0;
    OTF2_ErrorCode st = OTF2_Reader_ReadAllGlobalDefinitions(r, gdr, &n);
    OTF2_Reader_CloseGlobalDefReader(r, gdr);
    if (st != OTF2_SUCCESS) {
        snprintf(err, err_len, "%s: the global definitions are unreadable after %" PRIu64 " of them: %s", a->anchor, n,
                 why(st));
        return false;
    }
    if (!a->have_clock || a->tps == 0) {
        snprintf(err, err_len, "%s: the global definitions have no clock properties (timer resolution)", a->anchor);
        return false;
    }
    if (a->n_locs == 0) {
        snprintf(err, err_len, "%s: the global definitions define no location", a->anchor);
        return false;
    }
    return true;
}

bool o2_read_defs(const char *anchor, o2_archive *a, char *err, size_t err_len)
{
    init_archive(a, anchor);
    OTF2_Error_RegisterCallback(on_error, NULL);
    last_error[0] = 0;
    OTF2_Reader *r = OTF2_Reader_Open(anchor);
    if (!r) {
        snprintf(err, err_len, "%s: not a readable OTF2 archive: %s", anchor,
                 last_error[0] ? last_error : "the anchor file cannot be read");
        return false;
    }
    OTF2_Reader_SetSerialCollectiveCallbacks(r);
    char *creator = NULL;
    if (OTF2_Reader_GetCreator(r, &creator) == OTF2_SUCCESS && creator) {
        a->creator = g_strdup(creator);
        free(creator);
    }
    bool ok = read_global_defs(r, a, err, err_len);
    OTF2_Reader_Close(r);
    return ok;
}

struct o2_events {
    o2_archive *a;
    OTF2_Reader *r;
    OTF2_EvtReader **ers; /* per location, NULL once done */
};

o2_events *o2_events_open(o2_archive *a, const OTF2_EvtReaderCallbacks *cb, void *const *user, char *err,
                          size_t err_len)
{
    last_error[0] = 0;
    OTF2_Reader *r = OTF2_Reader_Open(a->anchor);
    if (!r) {
        snprintf(err, err_len, "%s: not a readable OTF2 archive: %s", a->anchor,
                 last_error[0] ? last_error : "the anchor file cannot be read");
        return NULL;
    }
    OTF2_Reader_SetSerialCollectiveCallbacks(r);
    for (size_t i = 0; i < a->n_locs; i++) OTF2_Reader_SelectLocation(r, a->locs[i].id);
    /* The event readers first: reading a location's local definitions
     * hands its mapping tables and clock offsets to its event reader. */
    last_error[0] = 0;
    if (OTF2_Reader_OpenEvtFiles(r) != OTF2_SUCCESS) {
        snprintf(err, err_len, "%s: cannot open the event files: %s", a->anchor, why(OTF2_ERROR_FILE_INTERACTION));
        OTF2_Reader_Close(r);
        return NULL;
    }
    o2_events *e = g_new0(o2_events, 1);
    e->a = a;
    e->r = r;
    e->ers = g_new0(OTF2_EvtReader *, a->n_locs);
    for (size_t i = 0; i < a->n_locs; i++) {
        last_error[0] = 0;
        e->ers[i] = OTF2_Reader_GetEvtReader(r, a->locs[i].id);
        if (!e->ers[i] && !a->locs[i].error)
            a->locs[i].error = g_strdup_printf("no event reader: %s", last_error[0] ? last_error : "no event file");
        a->locs[i].n_clock_offsets = 0;
    }
    bool defs_open = OTF2_Reader_OpenDefFiles(r) == OTF2_SUCCESS;
    OTF2_DefReaderCallbacks *dcb = OTF2_DefReaderCallbacks_New();
    OTF2_DefReaderCallbacks_SetClockOffsetCallback(dcb, def_clock_offset);
    for (size_t i = 0; defs_open && i < a->n_locs; i++) {
        o2_loc *l = &a->locs[i];
        last_error[0] = 0;
        OTF2_DefReader *dr = OTF2_Reader_GetDefReader(r, l->id);
        if (!dr) continue; /* no local definitions: nothing to map */
        OTF2_Reader_RegisterDefCallbacks(r, dr, dcb, l);
        uint64_t n = 0;
        OTF2_ErrorCode st = OTF2_Reader_ReadAllLocalDefinitions(r, dr, &n);
        if (st != OTF2_SUCCESS && !l->error)
            l->error = g_strdup_printf("its local definitions are unreadable: %s", why(st));
        OTF2_Reader_CloseDefReader(r, dr);
    }
    OTF2_DefReaderCallbacks_Delete(dcb);
    if (defs_open) OTF2_Reader_CloseDefFiles(r);
    for (size_t i = 0; i < a->n_locs; i++)
        if (e->ers[i]) OTF2_Reader_RegisterEvtCallbacks(r, e->ers[i], cb, user[i]);
    return e;
}

bool o2_events_read(o2_events *e, size_t i, uint64_t n)
{
    if (!e->ers[i]) return false;
    o2_loc *l = &e->a->locs[i];
    uint64_t got = 0;
    last_error[0] = 0;
    OTF2_ErrorCode st = OTF2_Reader_ReadLocalEvents(e->r, e->ers[i], n, &got);
    bool more = st == OTF2_SUCCESS && got == n;
    /* A callback may stop the reading (the clock pass, once it has what it
     * needs): not an error. */
    if (st != OTF2_SUCCESS && st != OTF2_ERROR_INTERRUPTED_BY_CALLBACK && !l->error)
        l->error = g_strdup_printf("events unreadable after %" PRIu64 " records: %s", l->n_read, why(st));
    if (!more) {
        OTF2_Reader_CloseEvtReader(e->r, e->ers[i]);
        e->ers[i] = NULL;
    }
    return more;
}

void o2_events_close(o2_events *e)
{
    if (!e) return;
    for (size_t i = 0; i < e->a->n_locs; i++)
        if (e->ers[i]) OTF2_Reader_CloseEvtReader(e->r, e->ers[i]);
    OTF2_Reader_CloseEvtFiles(e->r);
    OTF2_Reader_Close(e->r);
    g_free(e->ers);
    g_free(e);
}
