# Tables and headline rows of the point-to-point benchmarks, from run.sh's data file: lines of
# "bench ranks impl size value [lowest highest runs]", the value a number or "timeout"/"failed". An
# implementation with no line at all was skipped. Ratios are Plexus over the better of Open MPI and
# MPICH. Oversubscribed values (the median of the runs) come with the range of the runs: there the
# scheduler's placement of the ranks can change a number a thousandfold from one run to the next.
# Busy-machine rows (bench "bandwidth-busy": runs beside `busy` spinning processes of the runner's
# own) are medians with their range too, and shown beside the idle ones.
# usage: awk -v cores=N [-v busy=N] -f report.awk DATA

function numeric(v) { return v ~ /^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?$/ }
function lower_is_better(bench) { return bench == "latency" }
# Whether a value is a median with a range: oversubscribed and busy runs.
function spread(bench, n) { return n > cores || bench ~ /-busy$/ }

function human(bytes) {
    if (bytes >= 1048576 && bytes % 1048576 == 0) return (bytes / 1048576) "M"
    if (bytes >= 1024 && bytes % 1024 == 0) return (bytes / 1024) "K"
    return bytes
}

function value(bench, n, impl, size) {
    if (!((bench, n, impl) in ran)) return "skipped"
    if ((bench, n, impl, size) in v) return v[bench, n, impl, size]
    return "-"
}

# "x12" for a factor above 1, "1/12" below: oversubscribed rates fall, latencies grow.
function factor(f) {
    if (f >= 1) return "x" (f >= 10 ? sprintf("%.0f", f) : sprintf("%.1f", f))
    return "1/" (1 / f >= 10 ? sprintf("%.0f", 1 / f) : sprintf("%.1f", 1 / f))
}

function show(x) {
    if (!numeric(x)) return x
    if (x >= 100) return sprintf("%.0f", x)
    if (x >= 10) return sprintf("%.1f", x)
    return x >= 1 ? sprintf("%.2f", x) : sprintf("%.3f", x)
}

# Which of Open MPI and MPICH did better, or "" when neither has a number.
function best_impl(bench, n, size,    o, m) {
    o = value(bench, n, "openmpi", size); m = value(bench, n, "mpich", size)
    if (!numeric(o)) return numeric(m) ? "mpich" : ""
    if (!numeric(m)) return "openmpi"
    if (lower_is_better(bench)) return (o + 0 < m + 0) ? "openmpi" : "mpich"
    return (o + 0 > m + 0) ? "openmpi" : "mpich"
}

# The better of Open MPI's and MPICH's values, or "".
function best_other(bench, n, size,    i) {
    i = best_impl(bench, n, size)
    return i == "" ? "" : value(bench, n, i, size)
}

function ratio(bench, n, size,    p, b) {
    p = value(bench, n, "plexus", size); b = best_other(bench, n, size)
    if (!numeric(p) || b == "" || b + 0 == 0) return "-"
    return sprintf("%.2f", p / b)
}

# A value, with the range of the runs "[lowest-highest]" when asked and there were several.
function cell(bench, n, impl, size, with_range,    x) {
    x = show(value(bench, n, impl, size))
    if (with_range && runs[bench, n, impl, size] > 1)
        x = x " [" show(lo[bench, n, impl, size]) "-" show(hi[bench, n, impl, size]) "]"
    return x
}

function row(first, bench, n, size, w,    r) {
    r = spread(bench, n)
    printf "%8s %*s %*s %*s %12s\n", first, w, cell(bench, n, "plexus", size, r),
        w, cell(bench, n, "openmpi", size, r), w, cell(bench, n, "mpich", size, r),
        ratio(bench, n, size)
}

function heading(first, w) {
    printf "%8s %*s %*s %*s %12s\n", first, w, "Plexus", w, "Open MPI", w, "MPICH", "Plexus/best"
}

function table(bench, n, title, direction,    i) {
    if (!((bench, n) in sizes_of)) return
    printf "\n%s\n", title " (" direction ")"
    if (n > cores) print "(median of the runs, [lowest-highest] run)"
    heading("size", n > cores ? 22 : 11)
    for (i = 1; i <= nsizes[bench, n]; i++)
        row(human(size_at[bench, n, i]), bench, n, size_at[bench, n, i], n > cores ? 22 : 11)
}

# One headline: the target verdict, the three values and, for oversubscribed runs, how far each
# implementation fell from its own 2-rank number.
function better_or_equal(bench, a, b) {
    return lower_is_better(bench) ? a + 0 <= b + 0 : a + 0 >= b + 0
}

function headline(what, bench, n, size, base_n,    impl, i, k, p, b, verdict, worst, line, x, base)
{
    p = value(bench, n, "plexus", size); b = best_other(bench, n, size)
    if (!numeric(p)) verdict = "not measured (Plexus: " p ")"
    else if (b == "" && value(bench, n, "openmpi", size) value(bench, n, "mpich", size) == "skippedskipped")
        verdict = "not compared (neither Open MPI nor MPICH was run)"
    else if (b == "") verdict = "met (neither Open MPI nor MPICH finished)"
    else if (better_or_equal(bench, p, b)) verdict = "met"
    else verdict = "NOT met"
    # Oversubscribed, one implementation's runs can differ a thousandfold: say when Plexus's
    # median still lies within the spread of the better one's runs.
    i = best_impl(bench, n, size)
    worst = lower_is_better(bench) ? hi[bench, n, i, size] : lo[bench, n, i, size]
    if (verdict == "NOT met" && n > cores && runs[bench, n, i, size] > 1 &&
        better_or_equal(bench, p, worst))
        verdict = verdict " (but within the range of " name[i] "'s runs)"
    printf "  %-32s target %s\n", what, verdict
    line = ""
    for (k = 1; k <= 3; k++) {
        impl = order[k]; x = value(bench, n, impl, size)
        line = line sprintf("%s%s %s", k > 1 ? " | " : "", name[impl],
                            cell(bench, n, impl, size, spread(bench, n)))
        base = value(bench, base_n, impl, size)
        if (base_n && numeric(x) && numeric(base) && base + 0 > 0)
            line = line sprintf(" (%s vs %d ranks)", factor(x / base), base_n)
    }
    printf "      %s\n", line
}

# Idle and busy bandwidth side by side, one row per size the busy runs measured.
function busy_table(    i, size, w) {
    if (!(("bandwidth-busy", 2) in sizes_of)) return
    printf "\nBandwidth, 2 ranks, idle and beside %s spinning processes (busy), MB/s (%s)\n",
        busy == "" ? "some" : busy, "higher is better; Plexus/best > 1: Plexus is faster"
    print "(idle: best run; busy: median of the runs, [lowest-highest] run)"
    w = 22
    printf "%8s %9s %9s %9s %*s %*s %*s %9s %9s\n", "size", "Plexus", "Open MPI", "MPICH",
        w, "Plexus busy", w, "Open MPI busy", w, "MPICH busy", "idle P/b", "busy P/b"
    for (i = 1; i <= nsizes["bandwidth-busy", 2]; i++) {
        size = size_at["bandwidth-busy", 2, i]
        printf "%8s %9s %9s %9s %*s %*s %*s %9s %9s\n", human(size),
            cell("bandwidth", 2, "plexus", size, 0), cell("bandwidth", 2, "openmpi", size, 0),
            cell("bandwidth", 2, "mpich", size, 0), w, cell("bandwidth-busy", 2, "plexus", size, 1),
            w, cell("bandwidth-busy", 2, "openmpi", size, 1), w, cell("bandwidth-busy", 2, "mpich", size, 1),
            ratio("bandwidth", 2, size), ratio("bandwidth-busy", 2, size)
    }
}

BEGIN {
    order[1] = "plexus"; order[2] = "openmpi"; order[3] = "mpich"
    name["plexus"] = "Plexus"; name["openmpi"] = "Open MPI"; name["mpich"] = "MPICH"
}
{
    bench = $1; n = $2; impl = $3; size = $4
    ran[bench, n, impl] = 1
    v[bench, n, impl, size] = $5
    if (NF >= 8) {
        lo[bench, n, impl, size] = $6; hi[bench, n, impl, size] = $7
        runs[bench, n, impl, size] = $8
    }
    if (!((bench, n, size) in seen)) {
        seen[bench, n, size] = 1
        sizes_of[bench, n] = 1
        size_at[bench, n, ++nsizes[bench, n]] = size
    }
}
END {
    lat = "lower is better; Plexus/best < 1: Plexus is faster"
    high = "higher is better; Plexus/best > 1: Plexus is faster"
    table("latency", 2, "Latency, 2 ranks, one-way us", lat)
    table("latency", 4, "Latency, 4 ranks on " cores " cores (2 pairs at once), one-way us", lat)
    table("latency", 8, "Latency, 8 ranks on " cores " cores (4 pairs at once), one-way us", lat)
    table("bandwidth", 2, "Bandwidth, 2 ranks, window of 64, MB/s (10^6 B/s)", high)
    busy_table()
    if (("msgrate", 2) in sizes_of || ("msgrate", 4) in sizes_of || ("msgrate", 8) in sizes_of) {
        printf "\nMessage rate, 8-byte messages, all pairs, window of 64, %s (%s)\n",
            "million messages/s", high
        print "(2 ranks: best run; 4 and 8: median of the runs, [lowest-highest] run)"
        heading("ranks", 22)
        for (n = 2; n <= 8; n *= 2) if (("msgrate", n) in sizes_of) row(n, "msgrate", n, 8, 22)
    }
    print "\nHeadline rows (target: Plexus at least as good as the better of Open MPI and MPICH):"
    headline("8-byte latency, 2 ranks (us)", "latency", 2, 8, 0)
    headline("4 MB bandwidth, 2 ranks (MB/s)", "bandwidth", 2, 4194304, 0)
    if (("bandwidth-busy", 2) in sizes_of)
        headline("4 MB bandwidth, 2 ranks, busy", "bandwidth-busy", 2, 4194304, 0)
    headline("8-rank message rate (Mmsg/s)", "msgrate", 8, 8, 2)
    headline("8-byte latency, 4 ranks (us)", "latency", 4, 8, 2)
    headline("8-byte latency, 8 ranks (us)", "latency", 8, 8, 2)
}
