/* SPDX-License-Identifier: MIT */
/* send_reqs.c - see send_reqs.h. */
#include "send_reqs.h"

#include "fn_args.h"

void req_use_of(uint16_t label, req_use *out)
{
    fn_args a;
    fn_args_find(label, &a);
    out->role = (uint8_t)call_role(label);
    out->i_request = a.i_request;
    out->i_requests = a.i_requests;
}

void send_reqs_set(send_reqs *s, int64_t req, bool on)
{
    if (req < 0 || (uint64_t)req >= MATCH_REQ_DENSE) return;
    uint64_t bit = (uint64_t)1 << (req & 63), *w = &s->bits[req >> 6];
    if (!(*w & bit) == !on) return;
    *w ^= bit;
    s->n += on ? 1 : (uint32_t)-1;
}

void send_reqs_note(send_reqs *s, const req_use *u, const dumpi_call *c)
{
    if (u->role == R_NONE || (u->role != R_ISEND && !s->n)) return;
    if (u->role == R_COMPLETE) {
        dumpi_completions dc;
        dumpi_call_completions(c, &dc);
        for (int32_t i = 0; i < dc.n; i++) {
            int32_t req;
            const dumpi_status *st;
            if (!dumpi_completion_at(&dc, i, &req, &st)) send_reqs_done(s, req, st);
        }
    } else if (u->role == R_STARTALL) {
        int32_t n = 0;
        const int32_t *reqs = u->i_requests >= 0 ? dumpi_call_int_array(c, u->i_requests, &n) : NULL;
        for (int32_t i = 0; reqs && i < n; i++) send_reqs_post(s, u->role, reqs[i]);
    } else if (u->i_request >= 0 && dumpi_arg_present(c, u->i_request)) {
        send_reqs_post(s, u->role, c->args[u->i_request].i);
    }
}
