/* SPDX-License-Identifier: MIT */
/* cluster.c - see cluster.h. The protocol: process 0 asks a file's owner
 * to open it (REQ_OPEN: the owner opens and checks it with the decoder,
 * and answers with its error or with its size and the bytes outside the
 * call stream, all that opening reads) and to read the stream (REQ_READ:
 * a chunk from an offset, read ahead of the decoder's window so a request
 * serves many windows), and at the end tells every process it is done.
 * An owner answers in the order it is asked, and process 0 posts the
 * receive for an answer as it sends the request, so answers need no tag
 * of their own. Process 0's threads take a lock around every MPI call,
 * so MPI_THREAD_SERIALIZED is enough.
 */
#include "cluster.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <mpi.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum { TAG_REQ = 1, TAG_OPEN = 2, TAG_DATA = 3 };
enum { REQ_OPEN = 1, REQ_READ = 2, REQ_DONE = 3 };

/* Read-ahead of a remote file: its share of CACHE_BUDGET, within
 * [CHUNK_MIN, CHUNK_MAX]. Process 0 holds two chunks per remote file (the
 * one read and the one on its way), so with very many ranks the floor is
 * of the order of the decoder's own read window (build.c). */
#define CACHE_BUDGET (64u << 20)
#define CHUNK_MIN    (4u << 10)
#define CHUNK_MAX    (4u << 20)
#define CHUNK_LEAST  64 /* SLOG2_BUILD_MPI_CHUNK's floor */
/* Descriptors an owner keeps for MPI and the rest, besides its files. */
#define FD_RESERVE   64

/* What one process did, for SLOG2_BUILD_MPI_STATS. */
typedef struct cluster_stats {
    double cpu_s;
    double wait_s; /* process 0: seconds in exchanges with the owners */
    uint64_t files, requests, bytes_sent, bytes_received;
} cluster_stats;

static struct {
    int rank, size;
    int provided;
    bool met;        /* took part in the start of the build (meet) */
    FILE *real_err;  /* stderr as the process got it */
    char *kept;      /* processes but 0: what they printed, kept */
    size_t kept_len; /* (open_memstream) */
    FILE *kept_f;
    pthread_mutex_t lock; /* process 0: one exchange at a time */
    cluster_stats st;
} g = {.lock = PTHREAD_MUTEX_INITIALIZER};

static double clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

void cluster_begin(int provided)
{
    MPI_Comm_rank(MPI_COMM_WORLD, &g.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &g.size);
    g.provided = provided;
    g.real_err = stderr;
    /* The waits below sleep in short steps: without this a step is the
     * default timer slack, far longer than an answer takes. */
    prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
    if (g.rank != 0) {
        /* The same command line gives every process the same messages:
         * process 0 prints them; the others keep theirs (cluster_end). */
        if (!freopen("/dev/null", "w", stdout)) fclose(stdout);
        g.kept_f = open_memstream(&g.kept, &g.kept_len);
        if (g.kept_f) stderr = g.kept_f;
        return;
    }
#ifdef __linux__
    /* The pipeline runs in process 0 alone while the others mostly wait
     * for requests: let it use every CPU of its node, as slog2-build
     * would, whatever CPU mpirun bound it to. */
    long n_cpus = sysconf(_SC_NPROCESSORS_ONLN);
    cpu_set_t all;
    CPU_ZERO(&all);
    for (long c = 0; c < n_cpus && c < CPU_SETSIZE; c++) CPU_SET((int)c, &all);
    sched_setaffinity(0, sizeof all, &all);
#endif
}

/* The longest sleep between two tests of a request: an owner idle for a
 * while answers its next request this late at worst, and costs a wake-up
 * this often while idle. */
#define WAIT_MAX_NS 1000000L

/* Wait for rq without holding a CPU: the answer may need the CPU this
 * process would spin on (ranks oversubscribed, process 0's threads). */
static void wait_for(MPI_Request *rq, MPI_Status *status)
{
    long ns = 2000;
    for (int spins = 0;; spins++) {
        int done = 0;
        MPI_Test(rq, &done, status);
        if (done) return;
        if (spins < 32) continue;
        struct timespec ts = {0, ns};
        nanosleep(&ts, NULL);
        if (ns < WAIT_MAX_NS) ns *= 2;
    }
}

/* Every process, once: whether all came as far as the build. */
static bool meet(bool here)
{
    int mine = here, all = 0;
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    g.met = here;
    return all;
}

/* The process that reads rank r's file: contiguous blocks. */
static int owner_of(uint32_t r, uint32_t n_ranks)
{
    return (int)((uint64_t)r * (uint64_t)g.size / n_ranks);
}

/* The bytes outside a file's stream go in pieces of this size (a damaged
 * index can put most of a file outside its stream, beyond an int count);
 * a receiver out of memory drains them through a buffer of one piece. */
#define PIECE (64u << 10)

static void send_pieces(const uint8_t *p, uint64_t n)
{
    uint64_t done = 0;
    do {
        int k = n - done > PIECE ? (int)PIECE : (int)(n - done);
        MPI_Send(p + done, k, MPI_BYTE, 0, TAG_OPEN, MPI_COMM_WORLD);
        done += (uint64_t)k;
    } while (done < n);
}

/* Into p, or (p NULL) nowhere. */
static void recv_pieces(uint8_t *p, uint64_t n, int from)
{
    static uint8_t drain[PIECE];
    uint64_t done = 0;
    do {
        int k = n - done > PIECE ? (int)PIECE : (int)(n - done);
        MPI_Recv(p ? p + done : drain, k, MPI_BYTE, from, TAG_OPEN, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        done += (uint64_t)k;
    } while (done < n);
}

/* ------------------------------------------------------- the owners */

/* A file of this process's block, opened and checked before process 0
 * asks (so the owners open their blocks at once, not one file after
 * another as process 0 asks), and its answer to REQ_OPEN. */
typedef struct served {
    int fd;            /* -1: not opened, or opened for each read */
    const char *path;  /* the meta's; set once opened and checked */
    uint64_t dev, ino; /* what a read opening it again must find */
    int64_t head[4];   /* status, size, stream begin and end */
    uint8_t *outside;  /* the bytes outside the stream, until sent */
    size_t n_outside;
    dumpi_error *err; /* or the decoder's error */
} served;

static int64_t read_at(int fd, uint8_t *buf, uint64_t n, uint64_t off)
{
    uint64_t have = 0;
    while (have < n) {
        ssize_t k = pread(fd, buf + have, (size_t)(n - have), (off_t)(off + have));
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) return -errno;
        if (k == 0) break;
        have += (uint64_t)k;
    }
    return (int64_t)have;
}

/* Open rank r's file as dumpi_file_open() would (its checks, its
 * messages), keep a descriptor for the stream (transient: none, the file
 * is opened for each read) and the bytes outside it. */
static void prepare(const dumpi_meta *meta, served *sv, uint32_t r, bool transient)
{
    sv->fd = -1;
    const char *path = dumpi_meta_bin_path(meta, (int)r);
    if (!path) return; /* a missing rank: process 0 does not ask */
    dumpi_error e;
    memset(&e, 0, sizeof e);
    dumpi_file *f = NULL;
    int rc = dumpi_file_open(path, &f, &e);
    if (rc == DUMPI_OK) {
        uint64_t begin, end, size = dumpi_file_size(f);
        dumpi_file_stream_range(f, &begin, &end);
        dumpi_file_close(f);
        size_t n = (size_t)(begin + (size - end));
        uint8_t *out = malloc(n ? n : 1);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        int64_t a = fd < 0 ? -errno : -ENOMEM, b = 0;
        if (out && fd >= 0) {
            a = read_at(fd, out, begin, 0);
            b = read_at(fd, out + begin, size - end, end);
        }
        if (a < 0 || b < 0 || (uint64_t)a != begin || (uint64_t)b != size - end) {
            int err = a < 0 ? (int)-a : b < 0 ? (int)-b : EIO;
            snprintf(e.message, sizeof e.message, "%s: read: %s", path, strerror(err));
            e.offset = DUMPI_NO_OFFSET;
            rc = DUMPI_ERR_IO;
            if (fd >= 0) close(fd);
            free(out);
        } else {
            struct stat st;
            if (fstat(fd, &st) == 0) {
                sv->dev = (uint64_t)st.st_dev;
                sv->ino = (uint64_t)st.st_ino;
            }
            sv->path = path;
            if (transient)
                close(fd);
            else
                sv->fd = fd;
            sv->outside = out;
            sv->n_outside = n;
            sv->head[1] = (int64_t)size;
            sv->head[2] = (int64_t)begin;
            sv->head[3] = (int64_t)end;
        }
    }
    sv->head[0] = rc;
    e.code = rc;
    if (rc != DUMPI_OK && (sv->err = malloc(sizeof e))) *sv->err = e;
}

/* A read of a served file's stream: count or -errno. */
static int64_t read_served(const served *sv, uint8_t *buf, uint64_t len, uint64_t off)
{
    if (sv->fd >= 0) return read_at(sv->fd, buf, len, off);
    if (!sv->path) return -EBADF; /* not opened: process 0 was told so */
    int fd = open(sv->path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -errno;
    struct stat st;
    int64_t n = fstat(fd, &st) != 0 || (uint64_t)st.st_dev != sv->dev || (uint64_t)st.st_ino != sv->ino
                    ? -ESTALE /* replaced since it was checked */
                    : read_at(fd, buf, len, off);
    close(fd);
    return n;
}

/* REQ_OPEN: the header, then the bytes outside the stream or the error. */
static void answer_open(served *sv, uint32_t r)
{
    dumpi_error e;
    if (!sv) { /* not this process's: process 0 and it disagree */
        memset(&e, 0, sizeof e);
        snprintf(e.message, sizeof e.message, "rank %u: its file is not process %d's to read", r, g.rank);
        e.code = DUMPI_ERR_INVALID;
        e.offset = DUMPI_NO_OFFSET;
    }
    int64_t head[4] = {sv ? sv->head[0] : DUMPI_ERR_INVALID, 0, 0, 0};
    if (sv && sv->head[0] == DUMPI_OK) memcpy(head, sv->head, sizeof head);
    if (sv && sv->head[0] != DUMPI_OK) {
        if (sv->err)
            e = *sv->err;
        else { /* out of memory for the error itself */
            memset(&e, 0, sizeof e);
            snprintf(e.message, sizeof e.message, "rank %u: out of memory", r);
            e.code = (int)sv->head[0];
        }
    }
    MPI_Send(head, 4, MPI_INT64_T, 0, TAG_OPEN, MPI_COMM_WORLD);
    g.st.bytes_sent += sizeof head;
    if (head[0] != DUMPI_OK) {
        MPI_Send(&e, (int)sizeof e, MPI_BYTE, 0, TAG_OPEN, MPI_COMM_WORLD);
        g.st.bytes_sent += sizeof e;
    } else {
        send_pieces(sv->outside, sv->n_outside);
        g.st.bytes_sent += sv->n_outside;
        free(sv->outside);
        sv->outside = NULL;
    }
}

/* An owner's answers on their way: process 0 takes a large one only when
 * it next calls MPI (it may be decoding, the answer being a read ahead),
 * so the owner goes on serving meanwhile rather than wait for each. */
typedef struct outgoing {
    MPI_Request *rq;
    uint8_t **buf;
    size_t n, cap;
} outgoing;

static void reap(outgoing *o)
{
    for (size_t i = 0; i < o->n;) {
        int done = 0;
        MPI_Test(&o->rq[i], &done, MPI_STATUS_IGNORE);
        if (!done) {
            i++;
            continue;
        }
        free(o->buf[i]);
        o->n--;
        o->rq[i] = o->rq[o->n];
        o->buf[i] = o->buf[o->n];
    }
}

static void send_answer(outgoing *o, uint8_t *buf, int n)
{
    if (o->n == o->cap) {
        size_t cap = o->cap ? 2 * o->cap : 16;
        MPI_Request *rq = realloc(o->rq, cap * sizeof *rq);
        if (rq) o->rq = rq;
        uint8_t **b = realloc(o->buf, cap * sizeof *b);
        if (b) o->buf = b;
        if (!rq || !b) { /* no room to keep it: send it and wait */
            MPI_Send(buf, n, MPI_BYTE, 0, TAG_DATA, MPI_COMM_WORLD);
            free(buf);
            return;
        }
        o->cap = cap;
    }
    MPI_Isend(buf, n, MPI_BYTE, 0, TAG_DATA, MPI_COMM_WORLD, &o->rq[o->n]);
    o->buf[o->n++] = buf;
}

/* wait_for the next request, taking the answers sent meanwhile. */
static void wait_serving(MPI_Request *rq, outgoing *o)
{
    long ns = 2000;
    for (int spins = 0;; spins++) {
        int done = 0;
        MPI_Test(rq, &done, MPI_STATUS_IGNORE);
        if (done) return;
        if (o->n) reap(o);
        if (spins < 32) continue;
        struct timespec ts = {0, ns};
        nanosleep(&ts, NULL);
        if (ns < WAIT_MAX_NS) ns *= 2;
    }
}

/* Answer process 0's requests for the files of ranks [first, last) until
 * it is done. */
static void serve(const dumpi_meta *meta, uint32_t first, uint32_t last)
{
    served *sv = calloc(last > first ? last - first : 1, sizeof *sv);
    /* A block of more files than the process may hold open (the limit was
     * raised to the hard one at start): each is opened for each read, as
     * slog2-build does then with its own files (build.c). */
    struct rlimit rl;
    bool transient = getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
                     (uint64_t)(last - first) + FD_RESERVE > (uint64_t)rl.rlim_cur;
    dumpi_read_ahead ahead;
    dumpi_read_ahead_init(&ahead, meta, last, 0);
    for (uint32_t i = first; i < last; i++) {
        dumpi_read_ahead_before(&ahead, i);
        prepare(meta, &sv[i - first], i, transient);
        dumpi_read_ahead_after(&ahead, i);
        g.st.files++;
    }
    outgoing out = {0};
    for (;;) {
        uint64_t req[4];
        MPI_Request rq;
        MPI_Irecv(req, 4, MPI_UINT64_T, 0, TAG_REQ, MPI_COMM_WORLD, &rq);
        wait_serving(&rq, &out);
        g.st.bytes_received += sizeof req;
        if (req[0] == REQ_DONE) break;
        uint32_t r = (uint32_t)req[1];
        bool mine = r >= first && r < last;
        if (req[0] == REQ_OPEN) {
            answer_open(mine ? &sv[r - first] : NULL, r);
            continue;
        }
        /* REQ_READ: 8 bytes of count (or -errno), then the bytes. */
        uint64_t len = req[3] < CHUNK_MAX ? req[3] : CHUNK_MAX;
        uint8_t *buf = malloc((size_t)len + 8);
        int64_t n = !buf ? -ENOMEM : mine ? read_served(&sv[r - first], buf + 8, len, req[2]) : -EBADF;
        if (!buf) {
            MPI_Send(&n, 8, MPI_BYTE, 0, TAG_DATA, MPI_COMM_WORLD);
            continue;
        }
        memcpy(buf, &n, 8);
        int sent = 8 + (n > 0 ? (int)n : 0);
        send_answer(&out, buf, sent);
        g.st.bytes_sent += (uint64_t)sent;
        g.st.requests++;
    }
    while (out.n) { /* the last answers, taken before process 0 finishes */
        reap(&out);
        if (out.n) {
            struct timespec ts = {0, 100000};
            nanosleep(&ts, NULL);
        }
    }
    free(out.rq);
    free(out.buf);
    for (uint32_t i = first; i < last; i++) {
        if (sv[i - first].fd >= 0) close(sv[i - first].fd);
        free(sv[i - first].outside);
        free(sv[i - first].err);
    }
    free(sv);
}

/* ------------------------------------------- process 0: remote files */

/* A chunk of a remote file: 8 bytes of count (or -errno), then the bytes
 * [off, off + len) once the answer is in. */
typedef struct chunk {
    uint8_t *buf;
    size_t cap;
    uint64_t off, len;
} chunk;

/* Process 0's view of a file another process reads. While the decoder
 * reads from cur, the chunk after it is on its way into next (asked for
 * when cur arrived): the owner reads it and the answer travels while
 * process 0 decodes, rather than while it waits. */
typedef struct remote {
    uint32_t rank;
    int owner;
    uint64_t size, begin, end;
    uint8_t *outside; /* the bytes outside the stream, until fill */
    chunk cur, next;
    MPI_Request next_rq; /* next's answer, while pending */
    bool pending;
    size_t chunk_size;
} remote;

static int remote_fill(void *ctx, uint8_t *map)
{
    remote *rm = ctx;
    if (rm->begin) memcpy(map, rm->outside, (size_t)rm->begin);
    if (rm->size > rm->end) memcpy(map + rm->end, rm->outside + rm->begin, (size_t)(rm->size - rm->end));
    free(rm->outside);
    rm->outside = NULL;
    return 0;
}

static bool room(chunk *c, uint64_t len)
{
    if (len + 8 <= c->cap) return true;
    uint8_t *b = realloc(c->buf, (size_t)len + 8);
    if (!b) return false;
    c->buf = b;
    c->cap = (size_t)len + 8;
    return true;
}

/* Ask rm's owner for [off, off + len) into c (g.lock held); rq: its answer. */
static void ask(remote *rm, chunk *c, uint64_t off, uint64_t len, MPI_Request *rq)
{
    uint64_t req[4] = {REQ_READ, rm->rank, off, len};
    c->off = off;
    c->len = 0;
    MPI_Send(req, 4, MPI_UINT64_T, rm->owner, TAG_REQ, MPI_COMM_WORLD);
    MPI_Irecv(c->buf, (int)len + 8, MPI_BYTE, rm->owner, TAG_DATA, MPI_COMM_WORLD, rq);
    g.st.requests++;
    g.st.bytes_sent += sizeof req;
}

/* Wait for c's answer (g.lock held): its count, or -errno. */
static int64_t take(chunk *c, MPI_Request *rq)
{
    MPI_Status status;
    wait_for(rq, &status);
    int got = 0;
    MPI_Get_count(&status, MPI_BYTE, &got);
    g.st.bytes_received += (uint64_t)got;
    int64_t count;
    memcpy(&count, c->buf, 8);
    c->len = count > 0 ? (uint64_t)count : 0;
    return count;
}

static int64_t remote_read(void *ctx, void *buf, size_t n, uint64_t off)
{
    remote *rm = ctx;
    if (off >= rm->size || n == 0) return 0;
    if (!(off >= rm->cur.off && off < rm->cur.off + rm->cur.len)) {
        /* A chunk at a time, whatever the decoder asks for: it reads on
         * until its window is full. */
        uint64_t len = rm->chunk_size;
        if (len > rm->size - off) len = rm->size - off;
        if (!room(&rm->cur, len)) return -ENOMEM;
        pthread_mutex_lock(&g.lock);
        double t0 = clock_s(CLOCK_MONOTONIC);
        int64_t count = 0;
        bool have = false;
        if (rm->pending) { /* taken whatever it is: its buffer is next's */
            uint64_t at = rm->next.off;
            count = take(&rm->next, &rm->next_rq);
            rm->pending = false;
            if (at == off) { /* the read the decoder goes on with */
                chunk t = rm->cur;
                rm->cur = rm->next;
                rm->next = t;
                have = true;
            }
        }
        if (!have) {
            MPI_Request rq;
            ask(rm, &rm->cur, off, len, &rq);
            count = take(&rm->cur, &rq);
        }
        if (count > 0 && rm->cur.off + rm->cur.len < rm->size && room(&rm->next, rm->chunk_size)) {
            uint64_t at = rm->cur.off + rm->cur.len;
            ask(rm, &rm->next, at, rm->chunk_size < rm->size - at ? rm->chunk_size : rm->size - at, &rm->next_rq);
            rm->pending = true;
        }
        g.st.wait_s += clock_s(CLOCK_MONOTONIC) - t0;
        pthread_mutex_unlock(&g.lock);
        if (count <= 0) return count;
    }
    uint64_t left = rm->cur.off + rm->cur.len - off;
    size_t k = left < n ? (size_t)left : n;
    memcpy(buf, rm->cur.buf + 8 + (off - rm->cur.off), k);
    return (int64_t)k;
}

static void remote_close(void *ctx)
{
    remote *rm = ctx;
    if (rm->pending) { /* the owner's answer must be taken before its buffer goes */
        pthread_mutex_lock(&g.lock);
        take(&rm->next, &rm->next_rq);
        pthread_mutex_unlock(&g.lock);
    }
    free(rm->outside);
    free(rm->cur.buf);
    free(rm->next.buf);
    free(rm);
}

typedef struct open_ctx {
    uint32_t n_ranks;
    size_t chunk;
} open_ctx;

/* build_options.open_rank: process 0's own files as slog2-build opens
 * them, the others' through their owners. */
static int open_rank(void *ctx, uint32_t r, const char *path, dumpi_file **f, dumpi_error *e)
{
    const open_ctx *oc = ctx;
    int q = owner_of(r, oc->n_ranks);
    if (q == 0) {
        int rc = dumpi_file_open(path, f, e);
        g.st.files++;
        return rc;
    }
    *f = NULL;
    uint64_t req[4] = {REQ_OPEN, r, 0, 0};
    int64_t head[4];
    pthread_mutex_lock(&g.lock);
    double t0 = clock_s(CLOCK_MONOTONIC);
    MPI_Send(req, 4, MPI_UINT64_T, q, TAG_REQ, MPI_COMM_WORLD);
    MPI_Request rq;
    MPI_Status status;
    MPI_Irecv(head, 4, MPI_INT64_T, q, TAG_OPEN, MPI_COMM_WORLD, &rq);
    wait_for(&rq, &status);
    g.st.bytes_sent += sizeof req;
    g.st.bytes_received += sizeof head;
    if (head[0] != DUMPI_OK) {
        MPI_Recv(e, (int)sizeof *e, MPI_BYTE, q, TAG_OPEN, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        g.st.wait_s += clock_s(CLOCK_MONOTONIC) - t0;
        pthread_mutex_unlock(&g.lock);
        g.st.bytes_received += sizeof *e;
        return (int)head[0];
    }
    remote *rm = calloc(1, sizeof *rm);
    uint64_t out_len = (uint64_t)head[2] + (uint64_t)(head[1] - head[3]);
    uint8_t *outside = malloc(out_len ? (size_t)out_len : 1);
    /* Taken whatever happens, so the owner's answer is not left pending. */
    recv_pieces(outside, out_len, q);
    g.st.wait_s += clock_s(CLOCK_MONOTONIC) - t0;
    pthread_mutex_unlock(&g.lock);
    g.st.bytes_received += out_len;
    if (!rm || !outside) {
        free(rm);
        free(outside);
        snprintf(e->message, sizeof e->message, "%s: out of memory", path);
        e->code = DUMPI_ERR_NOMEM;
        e->offset = DUMPI_NO_OFFSET;
        return DUMPI_ERR_NOMEM;
    }
    rm->rank = r;
    rm->owner = q;
    rm->size = (uint64_t)head[1];
    rm->begin = (uint64_t)head[2];
    rm->end = (uint64_t)head[3];
    rm->outside = outside;
    rm->chunk_size = oc->chunk;
    dumpi_source src = {rm, rm->size, remote_fill, remote_read, remote_close};
    return dumpi_file_open_source(path, &src, f, e);
}

/* ------------------------------------------------------ the build */

int cluster_build_run(const dumpi_meta *meta, const build_options *o, build_summary *s, FILE *err_out)
{
    memset(s, 0, sizeof *s);
    if (!meet(true)) {
        if (g.rank == 0)
            fprintf(err_out, "slog2-build-mpi: error: a process stopped before the build (its messages follow)\n");
        return BUILD_FAILED;
    }
    int n = dumpi_meta_n_ranks(meta);
    uint32_t n_ranks = n > 0 ? (uint32_t)n : 0;
    if (g.rank != 0) {
        /* This process's block: the ranks whose owner it is. */
        uint32_t first = n_ranks, last = n_ranks;
        for (uint32_t r = 0; r < n_ranks; r++)
            if (owner_of(r, n_ranks) == g.rank) {
                if (first == n_ranks) first = r;
                last = r + 1;
            }
        if (first == n_ranks) first = last = 0;
        serve(meta, first, last);
        return BUILD_OK;
    }
    open_ctx oc = {n_ranks, CHUNK_MIN};
    uint32_t remote_files = 0;
    for (uint32_t r = 0; r < n_ranks; r++) remote_files += owner_of(r, n_ranks) != 0;
    if (remote_files) {
        size_t c = CACHE_BUDGET / remote_files;
        oc.chunk = c < CHUNK_MIN ? CHUNK_MIN : c > CHUNK_MAX ? CHUNK_MAX : c;
    }
    /* SLOG2_BUILD_MPI_CHUNK: the read-ahead in bytes, for tuning (and for
     * tests, down to a few records a request). */
    const char *env = getenv("SLOG2_BUILD_MPI_CHUNK");
    if (env && *env) {
        char *end;
        unsigned long long v = strtoull(env, &end, 10);
        if (!*end && v >= CHUNK_LEAST && v <= CHUNK_MAX) oc.chunk = (size_t)v;
    }
    build_options mine = *o;
    mine.open_rank = open_rank;
    mine.open_ctx = &oc;
    /* Closing a remote file takes the answer its owner may still be
     * sending (remote_close): not left for MPI_Finalize to find. */
    mine.leave_memory = 0;
    /* Reads of other processes' files may come from any of the pipeline's
     * threads: with less than MPI_THREAD_SERIALIZED, one thread (the same
     * bytes, -j does not change them). */
    if (g.provided < MPI_THREAD_SERIALIZED) mine.threads = 1;
    int rc = build_run(meta, &mine, s, err_out);
    for (int q = 1; q < g.size; q++) {
        uint64_t req[4] = {REQ_DONE, 0, 0, 0};
        MPI_Send(req, 4, MPI_UINT64_T, q, TAG_REQ, MPI_COMM_WORLD);
    }
    return rc;
}

#ifdef SLOG2_HAVE_OTF2
int cluster_otf2_build_run(const char *anchor, const otf2_build_options *o, FILE *err, FILE *out)
{
    if (!meet(true)) {
        if (g.rank == 0)
            fprintf(err, "slog2-build-mpi: error: a process stopped before the build (its messages follow)\n");
        return OTF2_BUILD_FAILED;
    }
    return g.rank == 0 ? otf2_build_run(anchor, o, err, out) : OTF2_BUILD_OK;
}
#endif

int cluster_end(int status)
{
    if (!g.met) meet(false);
    /* Process 0's status, and whether it reached the build. */
    int root[2] = {status, g.met};
    MPI_Bcast(root, 2, MPI_INT, 0, MPI_COMM_WORLD);
    g.st.cpu_s = clock_s(CLOCK_PROCESS_CPUTIME_ID);
    cluster_stats *all = g.rank == 0 ? calloc((size_t)g.size, sizeof *all) : NULL;
    MPI_Gather(&g.st, (int)sizeof g.st, MPI_BYTE, all, (int)sizeof g.st, MPI_BYTE, 0, MPI_COMM_WORLD);
    if (g.rank != 0 && g.kept_f) {
        stderr = g.real_err;
        fclose(g.kept_f);
        /* Its own messages matter when it stopped where process 0 went on. */
        if (!g.met && root[1] && g.kept_len) {
            fprintf(stderr, "slog2-build-mpi: process %d:\n", g.rank);
            fwrite(g.kept, 1, g.kept_len, stderr);
        }
        free(g.kept);
    }
    const char *want = getenv("SLOG2_BUILD_MPI_STATS");
    if (all && want && *want && strcmp(want, "0") != 0) {
        fprintf(stderr, "slog2-build-mpi: process  files  requests  sent B  received B  CPU s  waited s\n");
        for (int q = 0; q < g.size; q++)
            fprintf(stderr, "slog2-build-mpi: %7d %6" PRIu64 " %9" PRIu64 " %7" PRIu64 " %11" PRIu64 " %6.3f %9.3f\n",
                    q, all[q].files, all[q].requests, all[q].bytes_sent, all[q].bytes_received, all[q].cpu_s,
                    all[q].wait_s);
    }
    free(all);
    return root[0];
}
