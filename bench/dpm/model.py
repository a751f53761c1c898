#!/usr/bin/env python3
"""Scale model of dpm_ud's connect exchange (issue 20): what connecting a group of n processes
to a group of m costs in ud mode (datagrams) and in rc mode (a TCP connection between the roots
first), for groups up to 4,096 processes, from per-message costs measured on this machine.

The exchange, as the issue and the paper (section 5.3.3) describe it and components/dpm_ud
trades it, for the accepting group A (n processes) and the connecting group B (m):
  gather  each root gathers its group's business cards (binomial)
  cid     each group agrees on its context-id proposal (the core's agreement: a MAX allreduce and
          an AND of id windows, two small allreduces)
  hdr     B's root sends group size, id and context id in one datagram (hello); A's root
          answers (hello_ack); in rc mode the answer names a TCP port and B's root connects to
          it and proves the connection, which carries the rest
  bc1     each root broadcasts the other group's header in its group
  cards   the roots exchange their groups' business cards: m * card bytes one way, n * card the
          other (ud: fragmented datagrams, acknowledged; rc: the TCP stream)
  bc2     each root broadcasts the other group's cards in its group
  sync    building the inter-communicator (a small allreduce), gathering the build status,
          broadcasting done: small collectives in each group
  done    the starter's "built" and the answerer's last word (ud: datagrams; rc: TCP)
  c0      what the model does not see (the MPI layer, building the communicator, the port):
          one constant per mode, taken from the measured 1 + 1 connect when there is one
Costs:
  ud_x(R, S)   request of R bytes answered with S bytes through the datagram facility's reliable
               layer: a + b (R + S) + c (frags(R) + frags(S)), a, b, c fitted by least squares
               to bench/dgram's dgram_rr at two MTUs (the link's and --small-mtu), so that the
               per-byte and the per-fragment costs separate
  tcp_x(R, S)  the same over an established TCP connection: a + b (R + S), fitted to tcp_rr
  tcp_setup    tcp_rr's connect (socket, connect, accept, a 32-byte exchange, close)
  p2p(bytes)   one message between two processes of one group: the suite's intra-group ping-pong
               latency, interpolated; bcast(k, bytes) = ceil(log2 k) * p2p(bytes) (binomial)

usage: model.py --dgram CSV --dgram-small CSV --tcp CSV --latency CSV [--connect CSV]
                [--card-bytes N] [--small-mtu N] [--link-payload N] [--p2p-config NAME]
                [--out DIR]
       model.py --self-test
"""
import argparse
import csv
import math
import os
import shutil
import subprocess
import sys

DGRAM_HEADER = 72     # the datagram header (docs/datagrams.md, Wire format)
RELIABLE_HEADER = 52  # the reliable layer's data-fragment header
HDR_BYTES = 32        # group size, group id, context id and what frames them
SIZES = [2 ** k for k in range(13)]  # 1 .. 4096


def frags(nbytes, payload):
    """Fragments of a reliable message: at least one, even when empty."""
    return max(1, math.ceil(nbytes / payload))


def rounds(k):
    """Steps of a binomial broadcast over k processes."""
    return 0 if k <= 1 else math.ceil(math.log2(k))


def solve(m, v):
    """Gaussian elimination with partial pivoting for a small dense system."""
    n = len(v)
    a = [row[:] + [v[i]] for i, row in enumerate(m)]
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(a[r][col]))
        if abs(a[piv][col]) < 1e-300:
            raise ValueError("singular system: the measurements do not separate the costs")
        a[col], a[piv] = a[piv], a[col]
        for r in range(n):
            if r != col:
                f = a[r][col] / a[col][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col])]
    return [a[i][n] / a[i][i] for i in range(n)]


def least_squares(rows, ys, relative=False):
    """Coefficients x minimising |rows x - ys| (relative: each row's error over its y, so that
    a 60 us point weighs as much as a 200 ms one); a coefficient that comes out negative (noise:
    a cost cannot be) is dropped and the rest refitted."""
    if relative:
        rows = [[v / y for v in r] for r, y in zip(rows, ys)]
        ys = [1.0] * len(ys)
    k = len(rows[0])
    keep = list(range(k))
    while True:
        ata = [[sum(r[i] * r[j] for r in rows) for j in keep] for i in keep]
        aty = [sum(r[i] * y for r, y in zip(rows, ys)) for i in keep]
        x = solve(ata, aty)
        neg = [keep[i] for i, v in enumerate(x) if v < 0]
        if not neg:
            out = [0.0] * k
            for i, v in zip(keep, x):
                out[i] = v
            return out
        keep.remove(neg[0])


class Interp:
    """Piecewise-linear in bytes through measured (bytes, us) points; flat below the smallest,
    the last segment's slope above the largest."""

    def __init__(self, points):
        self.p = sorted(points)
        if not self.p:
            raise ValueError("no points to interpolate")

    def __call__(self, x):
        p = self.p
        if x <= p[0][0] or len(p) == 1:
            return p[0][1]
        for (x0, y0), (x1, y1) in zip(p, p[1:]):
            if x <= x1:
                return y0 + (y1 - y0) * (x - x0) / (x1 - x0)
        (x0, y0), (x1, y1) = p[-2], p[-1]
        return y1 + (y1 - y0) * (x - x1) / (x1 - x0)


class Costs:
    def __init__(self, ud, ud_payload, tcp, tcp_setup, p2p, card):
        self.ud = ud                  # (a, b, c) of ud_x
        self.ud_payload = ud_payload  # bytes per reliable fragment at the MTU modelled
        self.tcp = tcp                # (a, b) of tcp_x
        self.tcp_setup = tcp_setup
        self.p2p = p2p
        self.card = card

    def ud_x(self, r, s):
        a, b, c = self.ud
        return a + b * (r + s) + c * (frags(r, self.ud_payload) + frags(s, self.ud_payload))

    def tcp_x(self, r, s):
        a, b = self.tcp
        return a + b * (r + s)

    def bcast(self, k, nbytes):
        return rounds(k) * self.p2p(nbytes)

    def cid(self, k):
        return 2 * 2 * rounds(k) * self.p2p(64)  # two allreduces: reduce + bcast each

    def gather(self, k, nbytes):
        """Binomial gather of nbytes from each of k processes: round r moves 2^r blocks."""
        return sum(self.p2p(nbytes * 2 ** r) for r in range(rounds(k)))

    def sync(self, k):
        # intercomm_create's local id (an allreduce), the gathered build status, the bcast of
        # done: four small steps per round
        return 4 * rounds(k) * self.p2p(8)

    def steps(self, mode, n, m):
        """The exchange's parts in us, in order."""
        common = {
            "cid": max(self.cid(n), self.cid(m)),
            "bc1": max(self.bcast(n, HDR_BYTES), self.bcast(m, HDR_BYTES)),
            "bc2": max(self.bcast(n, m * self.card), self.bcast(m, n * self.card)),
        }
        hdr = self.ud_x(HDR_BYTES, HDR_BYTES)  # hello / hello_ack: a datagram each way in both modes
        if mode == "ud":
            cards = self.ud_x(m * self.card, n * self.card)
            done = self.ud_x(HDR_BYTES, HDR_BYTES)
        else:
            hdr += self.tcp_setup  # the hello_ack named the TCP port: connect, prove, then the rest
            cards = self.tcp_x(m * self.card, n * self.card)
            done = self.tcp_x(HDR_BYTES, HDR_BYTES)
        return {"gather": max(self.gather(n, self.card), self.gather(m, self.card)),
                "cid": common["cid"], "hdr": hdr, "bc1": common["bc1"], "cards": cards,
                "bc2": common["bc2"], "sync": max(self.sync(n), self.sync(m)), "done": done}

    def total(self, mode, n, m, c0=0.0):
        return sum(self.steps(mode, n, m).values()) + c0


def crossover(costs_ud, costs_rc, sizes, one_sided, c0_ud=0.0, c0_rc=0.0):
    """The smallest size at which rc is cheaper than ud, or None."""
    for s in sizes:
        n, m = (1, s) if one_sided else (s, s)
        if costs_rc.total("rc", n, m, c0_rc) < costs_ud.total("ud", n, m, c0_ud):
            return s
    return None


# ---- inputs ----------------------------------------------------------------------------------------

def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def fit_dgram(link_rows, small_rows, link_payload, small_payload):
    """(a, b, c) from dgram_rr's loss-free medians at both MTUs (request N answered with N)."""
    rows, ys = [], []
    for data, payload in ((link_rows, link_payload), (small_rows, small_payload)):
        for r in data:
            if float(r["loss"]) != 0:
                continue
            nb = int(r["bytes"])
            rows.append([1.0, 2.0 * nb, 2.0 * frags(nb, payload)])
            ys.append(float(r["median_us"]))
    if len(rows) < 3:
        raise ValueError("fewer than 3 loss-free dgram_rr points")
    return least_squares(rows, ys, relative=True)


def fit_tcp(rows):
    setup = [float(r["median_us"]) for r in rows if r["kind"] == "connect"]
    ex = [r for r in rows if r["kind"] == "exchange"]
    if not setup or len(ex) < 2:
        raise ValueError("tcp_rr output lacks the connect row or two exchange sizes")
    a, b = least_squares([[1.0, 2.0 * int(r["bytes"])] for r in ex], [float(r["median_us"]) for r in ex],
                         relative=True)
    return setup[0], (a, b)


def p2p_from(latency_rows, config):
    """The intra-group latency of config (or of the first configuration that has one)."""
    by = {}
    for r in latency_rows:
        if r["pair"] == "intra":
            by.setdefault(r["config"], []).append((int(r["size"]), float(r["best_us"])))
    if not by:
        raise ValueError("the latency CSV has no intra-group rows")
    name = config if config in by else sorted(by)[0]
    return name, Interp(by[name])


def measured_connects(rows):
    """{mode: {(n, m): us}} for the ud and rc configurations: the parent root's fastest connect,
    the one least disturbed by the other processes of a loaded machine (the model's costs are
    medians of quiet exchanges too)."""
    out = {}
    for r in rows:
        if r["config"] in ("ud", "rc"):
            out.setdefault(r["config"], {})[(int(r["parents"]), int(r["children"]))] = float(r["root_min_us"])
    return out


# ---- outputs ---------------------------------------------------------------------------------------

def fmt_us(us):
    if us >= 1e6:
        return "%.2f s" % (us / 1e6)
    if us >= 1e3:
        return "%.2f ms" % (us / 1e3)
    return "%.0f us" % us


def report(costs_link, costs_small, small_mtu, measured, out_dir, notes):
    print("Scale model of the connect exchange (bench/dpm/model.py)")
    for line in notes:
        print("  " + line)
    c0, said = {}, {}
    for mode in ("ud", "rc"):
        base = measured.get(mode, {}).get((1, 1))
        if base is not None:
            c0[mode] = base - costs_link.total(mode, 1, 1)
            said[mode] = fmt_us(c0[mode])
    for mode, other in (("ud", "rc"), ("rc", "ud")):
        if mode not in c0:
            # Mostly the MPI layer and the communicator, which both modes share: the other's.
            c0[mode] = c0.get(other, 0.0)
            said[mode] = "none measured (%s used)" % (fmt_us(c0[mode]) if other in said else "0")
    print("  c0 (what the model does not see, from the measured 1 + 1 connect): ud %s, rc %s" % (
        said["ud"], said["rc"]))

    print("\nPredicted against measured (MPI_Comm_accept at the parent root, the fastest of the run), us")
    if not measured:
        print("  no ud or rc connect measured (dpm_ud not installed, or its runs failed): nothing to check")
    print("%-5s %7s %8s %12s %12s %12s %10s" % ("mode", "parents", "children", "model", "model+c0", "measured", "meas/model+c0"))
    for mode in ("ud", "rc"):
        for (n, m), us in sorted(measured.get(mode, {}).items()):
            p = costs_link.total(mode, n, m)
            pc = p + c0[mode]
            print("%-5s %7d %8d %12.1f %12.1f %12.1f %10.2f%s" % (
                mode, n, m, p, pc, us, us / pc if pc > 0 else float("nan"),
                "  (calibration point)" if (n, m) == (1, 1) else ""))

    rows = []
    print("\nPrediction to 4,096 processes (c0 included), us")
    print("%6s | %12s %12s %12s | %12s %12s %12s" % ("size", "ud n=m", "ud%d n=m" % small_mtu, "rc n=m",
                                                    "ud 1+m", "ud%d 1+m" % small_mtu, "rc 1+m"))
    for s in SIZES:
        v = [costs_link.total("ud", s, s, c0["ud"]), costs_small.total("ud", s, s, c0["ud"]),
             costs_link.total("rc", s, s, c0["rc"]), costs_link.total("ud", 1, s, c0["ud"]),
             costs_small.total("ud", 1, s, c0["ud"]), costs_link.total("rc", 1, s, c0["rc"])]
        rows.append([s] + v)
        print("%6d | %12.1f %12.1f %12.1f | %12.1f %12.1f %12.1f" % tuple([s] + v))
    for label, costs in (("link MTU", costs_link), ("%d-byte MTU" % small_mtu, costs_small)):
        for one_sided in (False, True):
            x = crossover(costs, costs_link, SIZES, one_sided, c0["ud"], c0["rc"])
            shape = "1 parent + m children" if one_sided else "n = m"
            print("  crossover (%s, %s): %s" % (label, shape,
                  "none up to 4,096: ud is cheaper everywhere" if x is None else
                  "rc cheaper at every size" if x == 1 else
                  "rc cheaper from %d processes per group on (%d in both groups together, the unit of "
                  "dpm_ud_auto_threshold)" % (x, x + 1 if one_sided else 2 * x)))
    big = costs_link.steps("ud", 4096, 4096)
    print("  where ud's time goes at 4096 + 4096: " + ", ".join("%s %s" % (k, fmt_us(v)) for k, v in big.items()))
    big = costs_link.steps("rc", 4096, 4096)
    print("  where rc's time goes at 4096 + 4096: " + ", ".join("%s %s" % (k, fmt_us(v)) for k, v in big.items()))

    if out_dir:
        os.makedirs(out_dir, exist_ok=True)
        path = os.path.join(out_dir, "model.csv")
        with open(path, "w") as f:
            f.write("size,ud_n_eq_m_us,ud_small_mtu_n_eq_m_us,rc_n_eq_m_us,ud_1_plus_m_us,ud_small_mtu_1_plus_m_us,rc_1_plus_m_us\n")
            for r in rows:
                f.write(",".join(["%d" % r[0]] + ["%.1f" % x for x in r[1:]]) + "\n")
        plot(rows, measured, c0, small_mtu, out_dir)
    return rows


def plot(rows, measured, c0, small_mtu, out_dir):
    if not shutil.which("gnuplot"):
        print("gnuplot not installed: no model.png")
        return
    data = "\n".join(" ".join("%g" % x for x in r) for r in rows)
    meas = {}
    for mode in ("ud", "rc"):
        eq = [(n, us) for (n, m), us in sorted(measured.get(mode, {}).items()) if n == m]
        one = [(m, us) for (n, m), us in sorted(measured.get(mode, {}).items()) if n == 1]
        meas[mode] = (eq, one)
    blocks = "$model << EOD\n%s\nEOD\n" % data
    extra = {0: "", 1: ""}
    for mode in ("ud", "rc"):
        for panel, pts in enumerate(meas[mode]):
            if pts:
                name = "$m_%s_%d" % (mode, panel)
                blocks += "%s << EOD\n%s\nEOD\n" % (name, "\n".join("%d %g" % p for p in pts))
                extra[panel] += ", %s using 1:2 with points pt %d ps 1.5 title 'measured %s'" % (
                    name, 7 if mode == "ud" else 5, mode)
    script = blocks + """set terminal pngcairo size 1100,480 noenhanced
set output '%s'
set multiplot layout 1,2 title 'dpm_ud connect exchange: model from this machine''s per-message costs'
set logscale xy; set grid; set key top left; set xlabel 'processes per group'; set ylabel 'us'
set xrange [0.8:5000]
set title 'n parents connect to n children'
plot $model using 1:2 with lines lw 2 title 'ud (link MTU)', $model using 1:3 with lines lw 2 dt 2 title 'ud (%d-byte MTU)', $model using 1:4 with lines lw 2 title 'rc (TCP)'%s
set title '1 parent, m children'; set xlabel 'children'
plot $model using 1:5 with lines lw 2 title 'ud (link MTU)', $model using 1:6 with lines lw 2 dt 2 title 'ud (%d-byte MTU)', $model using 1:7 with lines lw 2 title 'rc (TCP)'%s
unset multiplot
""" % (os.path.join(out_dir, "model.png"), small_mtu, extra[0], small_mtu, extra[1])
    subprocess.run(["gnuplot"], input=script, text=True, check=False)
    print("plot: %s" % os.path.join(out_dir, "model.png"))


# ---- self-test (make check) ------------------------------------------------------------------------

def self_test():
    fails = []

    def expect(what, got, want, tol=1e-9):
        if abs(got - want) > tol * max(1.0, abs(want)):
            fails.append("%s: got %r, want %r" % (what, got, want))

    expect("frags(0)", frags(0, 100), 1)
    expect("frags(100)", frags(100, 100), 1)
    expect("frags(101)", frags(101, 100), 2)
    for k, want in ((1, 0), (2, 1), (3, 2), (4, 2), (5, 3), (4096, 12)):
        expect("rounds(%d)" % k, rounds(k), want)
    # Exact synthetic measurements: the fit gives back the costs that made them.
    link = [{"loss": "0", "bytes": str(b), "median_us": str(50 + 0.001 * 2 * b + 3 * 2 * frags(b, 65383))}
            for b in (0, 64, 1024, 65536, 1 << 20, 4 << 20)]
    small = [{"loss": "0", "bytes": str(b), "median_us": str(50 + 0.001 * 2 * b + 3 * 2 * frags(b, 1924))}
             for b in (0, 1024, 16384, 1 << 20)]
    small.append({"loss": "0.3", "bytes": "0", "median_us": "99999"})  # lossy rows are not fitted
    a, b, c = fit_dgram(link, small, 65383, 1924)
    expect("fitted a", a, 50, 1e-6)
    expect("fitted b", b, 0.001, 1e-6)
    expect("fitted c", c, 3, 1e-6)
    # A negative coefficient is dropped: data with no per-fragment cost and a little noise.
    x = least_squares([[1, 0, 1], [1, 10, 1], [1, 20, 2], [1, 30, 2]], [10, 20.1, 29.9, 40])
    if x[2] < 0:
        fails.append("a negative coefficient was kept: %r" % x)
    setup, (ta, tb) = fit_tcp([{"kind": "connect", "bytes": "32", "median_us": "80"},
                               {"kind": "exchange", "bytes": "0", "median_us": "20"},
                               {"kind": "exchange", "bytes": "1000", "median_us": "22"}])
    expect("tcp setup", setup, 80)
    expect("tcp a", ta, 20)
    expect("tcp b", tb, 0.001)
    p2p = Interp([(8, 1.0), (1024, 2.0), (4096, 5.0)])
    expect("interp below", p2p(1), 1.0)
    expect("interp between", p2p(2560), 3.5)
    expect("interp above", p2p(7168), 8.0)
    costs = Costs((50, 0.001, 3), 1924, (20, 0.001), 80, p2p, 1000)
    # 1 + 1: no broadcasts, no agreement; ud: hello, cards of 1000 bytes each way, done; rc:
    # hello as a datagram, the TCP set-up, cards and done over TCP.
    hello = 50 + 0.064 + 6
    expect("ud 1+1", costs.total("ud", 1, 1), hello + (50 + 2 + 6) + hello)
    expect("rc 1+1", costs.total("rc", 1, 1), hello + 80 + (20 + 2) + (20 + 0.064))
    # 4 + 2: the gather of cards over 4 (blocks of 1000 then 2000 bytes), agreement over 4 (2
    # rounds, 4 allreduce steps of p2p(64)), header broadcast over 4, cards of 2000 and 4000
    # bytes, the larger broadcast over 4 (2 rounds of p2p(2000)), 4 small steps per round.
    p64 = p2p(64)
    want = (p2p(1000) + p2p(2000)) + 4 * 2 * p64 + hello + 2 * p2p(32) + (50 + 6 + 3 * (2 + 3)) + \
        max(2 * p2p(2000), 1 * p2p(4000)) + 4 * 2 * p2p(8) + hello
    expect("ud 4+2", costs.total("ud", 4, 2), want)
    # A per-fragment cost large enough makes rc cheaper from some size on, and the crossover is
    # the first size where it is.
    heavy = Costs((50, 0.001, 400), 1924, (20, 0.001), 80, p2p, 1000)
    x = crossover(heavy, heavy, SIZES, False)
    if x is None or not heavy.total("rc", x, x) < heavy.total("ud", x, x) or (
            x > 1 and heavy.total("rc", x // 2, x // 2) < heavy.total("ud", x // 2, x // 2)):
        fails.append("crossover: %r" % x)
    light = Costs((50, 0.001, 0), 65383, (20, 0.001), 80, p2p, 1000)
    if crossover(light, light, SIZES, False) is not None:
        fails.append("crossover found where ud is cheaper everywhere")
    for f in fails:
        print("FAIL: " + f)
    print("model self-test: %d failure(s)" % len(fails))
    return 1 if fails else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--self-test", action="store_true")
    ap.add_argument("--dgram", help="dgram_rr CSV at the link's MTU")
    ap.add_argument("--dgram-small", help="dgram_rr CSV at --small-mtu")
    ap.add_argument("--small-mtu", type=int, default=2048, help="the small MTU measured (InfiniBand's 2 KB)")
    ap.add_argument("--link-payload", type=int, default=65507 - DGRAM_HEADER - RELIABLE_HEADER,
                    help="bytes per reliable fragment at the link's MTU (loopback: 65,383)")
    ap.add_argument("--tcp", help="tcp_rr CSV")
    ap.add_argument("--latency", help="the suite's latency.csv (intra-group rows)")
    ap.add_argument("--p2p-config", default="pmix", help="whose intra-group latency (default pmix)")
    ap.add_argument("--connect", help="the suite's connect.csv (ud and rc rows are checked)")
    ap.add_argument("--card-bytes", type=int, default=800,
                    help="business card bytes per process (btl_sm 320 + btl_tcp 464 + a UDP address 8 + framing)")
    ap.add_argument("--out", help="where model.csv and model.png go")
    a = ap.parse_args()
    if a.self_test:
        return self_test()
    missing = [n for n in ("dgram", "dgram_small", "tcp", "latency") if not getattr(a, n)]
    if missing:
        ap.error("missing: " + ", ".join("--" + m.replace("_", "-") for m in missing))
    try:
        small_payload = a.small_mtu - DGRAM_HEADER - RELIABLE_HEADER
        ud = fit_dgram(read_csv(a.dgram), read_csv(a.dgram_small), a.link_payload, small_payload)
        setup, tcp = fit_tcp(read_csv(a.tcp))
        p2p_name, p2p = p2p_from(read_csv(a.latency), a.p2p_config)
        measured = measured_connects(read_csv(a.connect)) if a.connect and os.path.exists(a.connect) else {}
    except (OSError, ValueError, KeyError) as e:
        print("model.py: %s" % e, file=sys.stderr)
        return 1
    notes = [
        "datagram exchange: %.1f us + %.4f us/byte + %.1f us/fragment (dgram_rr, loss 0, MTUs: link, %d)" % (
            ud[0], ud[1], ud[2], a.small_mtu),
        "TCP: setup %.1f us; exchange %.1f us + %.4f us/byte (tcp_rr)" % (setup, tcp[0], tcp[1]),
        "one message within a group: %s's intra-group latency (8 B %.2f us, 64 KiB %.1f us, 4 MiB %.0f us)" % (
            p2p_name, p2p(8), p2p(65536), p2p(4 << 20)),
        "business card: %d bytes per process; header %d bytes" % (a.card_bytes, HDR_BYTES),
    ]
    link = Costs(ud, a.link_payload, tcp, setup, p2p, a.card_bytes)
    small = Costs(ud, small_payload, tcp, setup, p2p, a.card_bytes)
    report(link, small, a.small_mtu, measured, a.out, notes)
    return 0


if __name__ == "__main__":
    sys.exit(main())
