/* SPDX-License-Identifier: MIT */
/* main.c - slog2-synth command line (the generator lives in workload.c). */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "workload.h"

static const char usage_text[] = "Usage: slog2-synth [OPTION]... -o DIR/PREFIX\n"
                                 "Write a synthetic MPI trace in the binary DUMPI format of libdumpi 13.0.0.\n"
                                 "\n"
                                 "Writes DIR/PREFIX.meta and one DIR/PREFIX-NNNN.bin per rank (NNNN = rank,\n"
                                 "4 digits), byte-compatible with what sst-dumpi's libdumpi writes: big-endian\n"
                                 "lead-in magic, call records with wall (and CPU) times, end-of-stream, header,\n"
                                 "footer with per-function call counts, keyval, perf-counter label, datatype-\n"
                                 "size and function-address sections, and the index record at the end.\n"
                                 "\n"
                                 "The simulated program is an SPMD 2-D stencil: compute phases, halo exchanges\n"
                                 "(Irecv/Isend/Waitall) over a periodic process grid, Allreduce, Bcast, Reduce,\n"
                                 "Gatherv and Barrier, a row communicator from MPI_Comm_split, Sendrecv rings,\n"
                                 "blocking Send/Recv ping-pongs, Iprobe polling loops and Probe, between\n"
                                 "MPI_Init and MPI_Finalize. All ranks share one simulated clock, so every\n"
                                 "receive completes after its matching send started. docs/SYNTH.md has the\n"
                                 "details.\n"
                                 "\n"
                                 "Output is deterministic: the same options give byte-identical files.\n"
                                 "\n"
                                 "Options:\n"
                                 "  -o, --output=DIR/PREFIX  where to write (DIR is created if missing);\n"
                                 "                           required\n"
                                 "  -n, --ranks=N            number of MPI ranks (default 4)\n"
                                 "  -c, --calls-per-rank=N   stop at about N MPI calls per rank (default 10000)\n"
                                 "  -s, --size=SIZE          instead, stop when all .bin files together reach\n"
                                 "                           about SIZE bytes; SIZE takes a K, M, G or T suffix\n"
                                 "                           (powers of 1024), e.g. 500M, 1G, 10G\n"
                                 "  -S, --seed=N             random seed (default 1)\n"
                                 "  -t, --threads=K          also trace K worker threads per rank (thread ids\n"
                                 "                           1..K, MPI_Init_thread with MPI_THREAD_MULTIPLE);\n"
                                 "                           0..16, default 0\n"
                                 "      --no-cpu-time        record wall times only (libdumpi \"timestamp wall\")\n"
                                 "      --no-statuses        leave statuses out (libdumpi \"statuses disable\")\n"
                                 "      --user-functions     also record instrumented user functions, as a\n"
                                 "                           program built with -finstrument-functions does:\n"
                                 "                           Function_enter/Function_exit records for solve()\n"
                                 "                           (each iteration) and compute() and\n"
                                 "                           exchange_halo() nested in it, and their names in\n"
                                 "                           the function-address section\n"
                                 "      --format=FMT         dumpi (default) or otf2: the same simulated program\n"
                                 "                           as an OTF2 archive DIR/PREFIX.otf2 (+ PREFIX.def,\n"
                                 "                           PREFIX/), with the records Score-P writes; --size\n"
                                 "                           still counts the DUMPI bytes of the run. Needs a\n"
                                 "                           build with libotf2; not with --threads\n"
                                 "      --hosts=H            spread the ranks over H simulated hosts (in blocks;\n"
                                 "                           at most one per rank), named synth-node-0 ..\n"
                                 "                           synth-node-<H-1>, each recording its own boot clock\n"
                                 "                           (CLOCK_MONOTONIC) up to about two days ahead of\n"
                                 "                           host 0's, as ranks on a cluster do; the simulated\n"
                                 "                           program is the same as with one host (default 1)\n"
                                 "  -q, --quiet              print nothing but errors\n"
                                 "  -h, --help               show this help and exit\n"
                                 "  -V, --version            show the version and exit\n"
                                 "\n"
                                 "Memory use is bounded whatever the size (output buffers of 4 KiB to 4 MiB\n"
                                 "per rank, 64 MiB in total up to 16384 ranks). More ranks than open files\n"
                                 "(ulimit -n) take turns at the descriptors, with the same bytes. Files are\n"
                                 "written under temporary names and renamed into place when complete; a\n"
                                 "failed write removes them all; stopped by SIGINT, SIGTERM, SIGHUP,\n"
                                 "SIGQUIT, SIGXCPU or SIGXFSZ (or a crash), it removes them first and ends\n"
                                 "as the signal would. Progress goes to standard error when it is a terminal\n"
                                 "and the output is large.\n"
                                 "\n"
                                 "Examples:\n"
                                 "  slog2-synth --ranks 64 --calls-per-rank 100000 --seed 1 -o /tmp/big/run\n"
                                 "  slog2-synth -n 16 --size 1G --threads 4 -o traces/synth\n"
                                 "\n"
                                 "Exit status (0, 1 and 2 as in the other slog2 tools):\n"
                                 "  0  success\n"
                                 "  1  a write error\n"
                                 "  2  usage error: a bad option or value\n";

static int parse_u64(const char *s, uint64_t *out)
{
  char *end;
  errno = 0;
  if (*s == '-' || *s == '\0') return -1;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || *end) return -1;
  *out = v;
  return 0;
}

/* "1G", "500M", "10g", "4096", "1.5G", "2GiB" -> bytes. */
static int parse_size(const char *s, uint64_t *out)
{
  char *end;
  errno = 0;
  if (*s == '-' || *s == '\0') return -1;
  double v = strtod(s, &end);
  if (errno || end == s || v <= 0) return -1;
  double mul = 1;
  switch (*end) {
  case 'k':
  case 'K':
    mul = 1024.0;
    end++;
    break;
  case 'm':
  case 'M':
    mul = 1024.0 * 1024;
    end++;
    break;
  case 'g':
  case 'G':
    mul = 1024.0 * 1024 * 1024;
    end++;
    break;
  case 't':
  case 'T':
    mul = 1024.0 * 1024 * 1024 * 1024;
    end++;
    break;
  default: break;
  }
  if (strcmp(end, "iB") == 0 || strcmp(end, "B") == 0) end += strlen(end);
  if (*end) return -1;
  v *= mul;
  if (v >= 1.8e19) return -1;
  *out = (uint64_t)v;
  return 0;
}

static void human(char *buf, size_t n, double bytes)
{
  const char *u[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int i = 0;
  while (bytes >= 1024 && i < 4) {
    bytes /= 1024;
    i++;
  }
  snprintf(buf, n, "%.1f %s", bytes, u[i]);
}

static int usage_error(const char *fmt, const char *arg)
{
  fprintf(stderr, "slog2-synth: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\nTry 'slog2-synth --help' for more information.\n");
  return 2;
}

int main(int argc, char **argv)
{
  enum { OPT_NO_CPU = 256, OPT_NO_STATUS, OPT_USER_FNS, OPT_HOSTS, OPT_FORMAT };
  static const struct option opts[] = {{"output", required_argument, NULL, 'o'},
                                       {"ranks", required_argument, NULL, 'n'},
                                       {"calls-per-rank", required_argument, NULL, 'c'},
                                       {"size", required_argument, NULL, 's'},
                                       {"seed", required_argument, NULL, 'S'},
                                       {"threads", required_argument, NULL, 't'},
                                       {"no-cpu-time", no_argument, NULL, OPT_NO_CPU},
                                       {"format", required_argument, NULL, OPT_FORMAT},
                                       {"no-statuses", no_argument, NULL, OPT_NO_STATUS},
                                       {"user-functions", no_argument, NULL, OPT_USER_FNS},
                                       {"hosts", required_argument, NULL, OPT_HOSTS},
                                       {"quiet", no_argument, NULL, 'q'},
                                       {"help", no_argument, NULL, 'h'},
                                       {"version", no_argument, NULL, 'V'},
                                       {NULL, 0, NULL, 0}};
  synth_config cfg = {
      .ranks = 4,
      .threads = 0,
      .calls_per_rank = 10000,
      .size = 0,
      .seed = 1,
      .cpu_times = 1,
      .statuses = 1,
      .out_prefix = NULL,
      .progress = 0,
      .buffer_budget = 64u << 20,
  };
  int quiet = 0, opt;
  uint64_t v;
  while ((opt = getopt_long(argc, argv, "o:n:c:s:S:t:qhV", opts, NULL)) != -1) {
    switch (opt) {
    case 'o': cfg.out_prefix = optarg; break;
    case 'n':
      if (parse_u64(optarg, &v) || v < 1 || v > 1000000)
        return usage_error("--ranks wants a number from 1 to 1000000, not '%s'", optarg);
      cfg.ranks = (int)v;
      break;
    case 'c':
      if (parse_u64(optarg, &v) || v < 1)
        return usage_error("--calls-per-rank wants a positive number, not '%s'", optarg);
      cfg.calls_per_rank = v;
      break;
    case 's':
      if (parse_size(optarg, &cfg.size)) return usage_error("--size wants a size such as 500M or 1G, not '%s'", optarg);
      break;
    case 'S':
      if (parse_u64(optarg, &cfg.seed)) return usage_error("--seed wants a non-negative number, not '%s'", optarg);
      break;
    case 't':
      if (parse_u64(optarg, &v) || v > SYNTH_MAX_THREADS)
        return usage_error("--threads wants a number from 0 to 16, not '%s'", optarg);
      cfg.threads = (int)v;
      break;
    case OPT_NO_CPU: cfg.cpu_times = 0; break;
    case OPT_NO_STATUS: cfg.statuses = 0; break;
    case OPT_USER_FNS: cfg.user_functions = 1; break;
    case OPT_HOSTS:
      if (parse_u64(optarg, &v) || v < 1 || v > 1000000)
        return usage_error("--hosts wants a number from 1 to 1000000, not '%s'", optarg);
      cfg.hosts = (int)v;
      break;
    case OPT_FORMAT:
      if (strcmp(optarg, "dumpi") == 0)
        cfg.otf2 = 0;
      else if (strcmp(optarg, "otf2") == 0)
        cfg.otf2 = 1;
      else
        return usage_error("--format wants dumpi or otf2, not '%s'", optarg);
      break;
    case 'q': quiet = 1; break;
    case 'h': fputs(usage_text, stdout); return 0;
    case 'V': printf("slog2-synth %s (DUMPI trace format 13.0.0)\n", SLOG2_VERSION); return 0;
    default: fprintf(stderr, "Try 'slog2-synth --help' for more information.\n"); return 2;
    }
  }
  if (optind < argc) return usage_error("unexpected argument '%s'", argv[optind]);
  if (!cfg.out_prefix || !*cfg.out_prefix) return usage_error("%s", "missing -o DIR/PREFIX");
  if (cfg.otf2 && !synth_has_otf2())
    return usage_error("%s", "--format otf2: this slog2-synth was built without libotf2");
  if (cfg.otf2 && cfg.threads) return usage_error("%s", "--format otf2 does not write worker threads (--threads) yet");
  const char *base = strrchr(cfg.out_prefix, '/');
  if ((base ? base[1] : cfg.out_prefix[0]) == '\0')
    return usage_error("-o '%s' names a directory; add a file prefix", cfg.out_prefix);

  /* Progress only for a person watching something that takes a while. */
  uint64_t expect = cfg.size ? cfg.size : cfg.calls_per_rank * (uint64_t)cfg.ranks * 50;
  cfg.progress = !quiet && isatty(STDERR_FILENO) && expect >= (64u << 20);
  cfg.remove_on_signal = 1;

  synth_result res;
  char err[512];
  if (synth_run(&cfg, &res, err, sizeof err) != 0) {
    fprintf(stderr, "slog2-synth: %s\n", err);
    return 1;
  }
  if (!quiet) {
    char a[32], b[32];
    human(a, sizeof a, (double)res.bytes);
    human(b, sizeof b, res.seconds > 0 ? (double)res.bytes / res.seconds : 0);
    fprintf(stderr,
            "slog2-synth: %d ranks, %" PRIu64 " calls (%" PRIu64 " per rank), %s in %.2f s "
            "(%s/s) -> %s.%s\n",
            cfg.ranks, res.calls, res.calls / (uint64_t)cfg.ranks, a, res.seconds, b, cfg.out_prefix,
            cfg.otf2 ? "otf2" : "meta");
  }
  return 0;
}
