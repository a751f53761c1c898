# Tables of the DPM benchmark suite from run.sh's data file: lines "CONFIG WHAT NUMBERS..." as
# dpm_bench prints them (spawn, rate, merge, connect, latency, bandwidth, coll, cycles,
# cycles_done) and "CONFIG failed PART N REASON" for runs that ended without their numbers. One
# column per configuration (ud, rc, pmix: Plexus's dpm_ud in each mode and dpm_pmix; openmpi;
# mpich), then the ratios ud/rc, ud/pmix and the best Plexus configuration over the better of
# Open MPI and MPICH (for times < 1 means Plexus faster; for rates and bandwidth > 1 does).
# usage: awk -v cycles=N -v load0=... -v load1=... -v configs=LIST [-v spawn_parents=1,2,4
#            -v spawn_children=1,2,4,8] -f report.awk DATA

function numeric(v) { return v ~ /^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?$/ }

function show(x) {
    if (!numeric(x)) return x
    if (x >= 100) return sprintf("%.0f", x)
    if (x >= 10) return sprintf("%.1f", x)
    return x >= 1 ? sprintf("%.2f", x) : sprintf("%.3f", x)
}

function human(b) {
    if (b >= 1048576 && b % 1048576 == 0) return (b / 1048576) "M"
    if (b >= 1024 && b % 1024 == 0) return (b / 1024) "K"
    return b
}

# The value of KEY for config C, or why there is none: "hung"/"failed" when the run for that part
# and parent count failed, "skipped" when the configuration never ran, else "-".
function get(c, key, part, n) {
    if ((c, key) in v) return v[c, key]
    if (!(c in ran)) return "skipped"
    if ((c, part, n) in failed) return failed[c, part, n]
    return "-"
}

function ratio(p, b) {
    if (!numeric(p) || !numeric(b) || b + 0 <= 0) return "-"
    return sprintf(p / b >= 0.1 ? "%.2f" : "%.2g", p / b)
}

# best(a, b, lower): the better of two values that may be words.
function best(a, b, lower) {
    if (!numeric(a)) return numeric(b) ? b : ""
    if (!numeric(b)) return a
    return (lower ? a + 0 < b + 0 : a + 0 > b + 0) ? a : b
}

function header(first,    i) {
    printf "%-16s", first
    for (i = 1; i <= ncfg; i++) printf " %12s", short[cfg[i]]
    printf " %8s %8s %10s\n", "ud/rc", "ud/pmix", "Plx/other"
}

# One row: every configuration's value of KEY, then the ratios.
function row(label, key, part, n, lower,    i, c, x, val, bp, bo) {
    printf "%-16s", label
    for (i = 1; i <= ncfg; i++) {
        c = cfg[i]; x = get(c, key, part, n); val[c] = x
        printf " %12s", show(x)
    }
    bp = best(best(val["ud"], val["rc"], lower), val["pmix"], lower)
    bo = best(val["openmpi"], val["mpich"], lower)
    printf " %8s %8s %10s\n", ratio(val["ud"], val["rc"]), ratio(val["ud"], val["pmix"]), ratio(bp, bo)
}

{ ran[$1] = 1 }
$2 == "failed" {
    why = $0; sub(/^[^ ]+ failed [^ ]+ [^ ]+ /, "", why)
    failed[$1, $3, $4] = why ~ /HUNG/ ? "hung" : "failed"
    reason[$1, $3, $4] = why
    next
}
$2 == "spawn" { v[$1, "spawn" SUBSEP $3 SUBSEP $4] = $5; spawn_rows[$3 SUBSEP $4] = 1; spawn_iters = $9 }
$2 == "rate" { v[$1, "rate"] = $5 }
$2 == "merge" { v[$1, "merge1" SUBSEP $3 SUBSEP $4] = $5; v[$1, "merge" SUBSEP $3 SUBSEP $4] = $6; merge_rows[$3 SUBSEP $4] = 1; merge_iters = $7 }
$2 == "connect" { v[$1, "conn1" SUBSEP $3 SUBSEP $4] = $5; v[$1, "conn" SUBSEP $3 SUBSEP $4] = $6
                  conn_rows[$3 SUBSEP $4] = 1; conn_iters = $8 }
$2 == "latency" { v[$1, "lat" SUBSEP $3 SUBSEP $4] = $5; lat_sizes[$4] = 1 }
$2 == "bandwidth" { v[$1, "bw" SUBSEP $3 SUBSEP $4] = $5; lat_sizes[$4] = 1 }
$2 == "coll" { v[$1, "coll" SUBSEP $3 SUBSEP $4 "+" $5 SUBSEP $6] = $8
               lo[$1, $3, $4 "+" $5, $6] = $7; hi[$1, $3, $4 "+" $5, $6] = $9
               k = $3 SUBSEP $4 "+" $5 SUBSEP $6; if (!(k in coll_seen)) { coll_seen[k] = 1; coll_rows[++ncoll] = k } }
$2 == "cycles" { last_progress[$1] = $3 }
$2 == "cycles_done" { done[$1] = $0 }

# Sorts "A SUBSEP B" keys numerically by A, then B, into out[1..n]; returns n.
function sorted_pairs(set, out,    k, n, i, j, t, a, b) {
    n = 0
    for (k in set) out[++n] = k
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) {
        split(out[i], a, SUBSEP); split(out[j], b, SUBSEP)
        if (a[1] + 0 > b[1] + 0 || (a[1] == b[1] && a[2] + 0 > b[2] + 0)) { t = out[i]; out[i] = out[j]; out[j] = t }
    }
    return n
}

function sorted_numbers(set, out,    k, n, i, j, t) {
    n = 0
    for (k in set) out[++n] = k
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (out[i] + 0 > out[j] + 0) { t = out[i]; out[i] = out[j]; out[j] = t }
    return n
}

function spawn_table(    ps, cs, i, j, n, keys, a) {
    split(spawn_parents, ps, ","); split(spawn_children, cs, ",")
    for (i in ps) for (j in cs) if (ps[i] != "" && cs[j] != "") spawn_rows[ps[i] SUBSEP cs[j]] = 1
    n = sorted_pairs(spawn_rows, keys)
    printf "\nSpawn latency: MPI_Comm_spawn at the parent root, ms, mean of %s spawns (spawn.csv has fastest, median, slowest)\n", spawn_iters
    header("parents+children")
    for (i = 1; i <= n; i++) {
        split(keys[i], a, SUBSEP)
        row(a[1] "+" a[2], "spawn" SUBSEP a[1] SUBSEP a[2], "spawn", a[1], 1)
    }
}

function merge_and_rate(    keys, n, i, a) {
    printf "\nSpawn rate: spawn + disconnect cycles of one child per second (higher is better)\n"
    header("")
    row("1 parent", "rate", "rate", 1, 0)
    n = sorted_pairs(merge_rows, keys)
    printf "\nIntercomm_merge after a spawn, us, max over the processes: the first merge\n"
    header("parents+children")
    for (i = 1; i <= n; i++) { split(keys[i], a, SUBSEP); row(a[1] "+" a[2], "merge1" SUBSEP keys[i], "mergec" a[2], a[1], 1) }
    printf "... and the mean of %s later merges\n", merge_iters
    header("parents+children")
    for (i = 1; i <= n; i++) { split(keys[i], a, SUBSEP); row(a[1] "+" a[2], "merge" SUBSEP keys[i], "mergec" a[2], a[1], 1) }
}

function connect_table(    keys, n, i, a) {
    n = sorted_pairs(conn_rows, keys)
    if (!n) return
    printf "\nMPI_Comm_accept / MPI_Comm_connect between parents and their children, us, mean of %s (max over the processes)\n", conn_iters
    header("parents+children")
    for (i = 1; i <= n; i++) { split(keys[i], a, SUBSEP); row(a[1] "+" a[2], "conn" SUBSEP a[1] SUBSEP a[2], "connectc" a[2], a[1], 1) }
    printf "... the first connect after the spawn\n"
    header("parents+children")
    for (i = 1; i <= n; i++) { split(keys[i], a, SUBSEP); row(a[1] "+" a[2], "conn1" SUBSEP a[1] SUBSEP a[2], "connectc" a[2], a[1], 1) }
}

function p2p_tables(    sizes, n, i, p, w, names, part, k, c, x, y) {
    n = sorted_numbers(lat_sizes, sizes)
    if (!n) return
    split("inter intra merged", w, " ")
    names["inter"] = "parent <-> child over the spawn's inter-communicator"
    names["intra"] = "two ranks of one job (intra-group)"
    names["merged"] = "parent <-> child over the merged intra-communicator"
    for (p = 1; p <= 3; p++) {
        part = w[p] == "intra" ? "intra" : "latency"
        printf "\nLatency, one-way us, best of 5 batches: %s\n", names[w[p]]
        header("bytes")
        for (i = 1; i <= n; i++) row(human(sizes[i]), "lat" SUBSEP w[p] SUBSEP sizes[i], part, part == "intra" ? 2 : 1, 1)
    }
    printf "\nInter-group over intra-group latency (1.00: as fast across jobs as within one)\n"
    printf "%-16s", "bytes"
    for (k = 1; k <= ncfg; k++) printf " %12s", short[cfg[k]]
    printf "\n"
    for (i = 1; i <= n; i++) {
        printf "%-16s", human(sizes[i])
        for (k = 1; k <= ncfg; k++) {
            c = cfg[k]; x = get(c, "lat" SUBSEP "inter" SUBSEP sizes[i], "latency", 1); y = get(c, "lat" SUBSEP "intra" SUBSEP sizes[i], "intra", 2)
            printf " %12s", ratio(x, y)
        }
        printf "\n"
    }
    for (p = 1; p <= 3; p++) {
        part = w[p] == "intra" ? "intra" : "latency"
        printf "\nBandwidth, MB/s, best of 3 batches (higher is better): %s\n", names[w[p]]
        header("bytes")
        for (i = 1; i <= n; i++) row(human(sizes[i]), "bw" SUBSEP w[p] SUBSEP sizes[i], part, part == "intra" ? 2 : 1, 0)
    }
}

function coll_tables(    i, j, f, name, last, rooted, c, x, cell) {
    if (!ncoll) return
    # rows in the order they came: collective, groups, size
    for (i = 1; i <= ncoll; i++) {
        split(coll_rows[i], f, SUBSEP)
        if (f[1] != last) {
            last = f[1]; rooted = f[1] == "bcast" || f[1] == "reduce"
            printf "\nInter-communicator %s after a spawn, us per call, %s over the processes of each one's mean\n", f[1],
                rooted ? "average [min-max]" : "average"
            printf "%-16s", "groups bytes"
            for (j = 1; j <= ncfg; j++) printf rooted ? " %22s" : " %12s", short[cfg[j]]
            printf " %8s %8s %10s\n", "ud/rc", "ud/pmix", "Plx/other"
        }
        split(f[2], gp, "+")
        printf "%-16s", f[2] " " (f[1] == "barrier" ? "-" : human(f[3]))
        delete val
        for (j = 1; j <= ncfg; j++) {
            c = cfg[j]; x = get(c, "coll" SUBSEP f[1] SUBSEP f[2] SUBSEP f[3], "collc" gp[2], gp[1]); val[c] = x
            cell = numeric(x) && rooted ? show(x) " [" show(lo[c, f[1], f[2], f[3]]) "-" show(hi[c, f[1], f[2], f[3]]) "]" : show(x)
            printf rooted ? " %22s" : " %12s", cell
        }
        bp = best(best(val["ud"], val["rc"], 1), val["pmix"], 1); bo = best(val["openmpi"], val["mpich"], 1)
        printf " %8s %8s %10s\n", ratio(val["ud"], val["rc"]), ratio(val["ud"], val["pmix"]), ratio(bp, bo)
    }
}

function soak(    k, c, f, x, at) {
    printf "\n%d spawn / exchange / disconnect cycles of one child (must finish; each wait bounded): the parent's\n", cycles
    printf "descriptors, threads, resident KiB and the machine's /dev/shm entries, first -> last\n"
    for (k = 1; k <= ncfg; k++) {
        c = cfg[k]
        if (c in done) {
            split(done[c], f, " ")
            printf "  %-12s %s of %s in %s s (%s/s); fds %s -> %s, threads %s -> %s, RSS %s -> %s KiB, /dev/shm %s -> %s%s\n",
                name[c], f[3], f[4], show(f[5]), show(f[6]), f[7], f[8], f[9], f[10], f[11], f[12], f[13], f[14],
                f[3] < f[4] ? " (stopped by the time budget)" : ""
        } else if ((c, "cycles", 1) in failed) {
            x = reason[c, "cycles", 1]
            at = match(x, /cycle [0-9]+/) ? "in " substr(x, RSTART, RLENGTH) : "(cycle unknown)"
            printf "  %-12s %s %s (last progress line: %d done): %s\n", name[c], failed[c, "cycles", 1], at, last_progress[c] + 0, x
        } else printf "  %-12s %s\n", name[c], c in ran ? "-" : "skipped"
    }
}

# The best Plexus configuration's value of KEY (lower better), with its name in bestname.
function best_plexus(key, part, n,    k, c, x, b) {
    b = ""; bestname = ""
    for (k = 1; k <= ncfg; k++) {
        c = cfg[k]
        if (c != "ud" && c != "rc" && c != "pmix") continue
        x = get(c, key, part, n)
        if (numeric(x) && (b == "" || x + 0 < b + 0)) { b = x; bestname = c }
    }
    return b
}

function targets(    p, o, r, m, ip, ia, keys, n, i, a, from, ok, u, rr, pm) {
    printf "\nIssue 19's and 20's targets\n"
    p = best_plexus("spawn" SUBSEP 1 SUBSEP 1, "spawn", 1); pn = bestname
    o = get("openmpi", "spawn" SUBSEP 1 SUBSEP 1, "spawn", 1)
    printf "  spawn of one child at least 4x faster than Open MPI, aiming at 20 ms: Plexus %s ms (%s), Open MPI %s ms -> %s\n",
        show(p), pn, show(o), numeric(p) && numeric(o) ? (o / p >= 4 ? "met (" sprintf("%.1fx", o / p) ")" : "NOT met (" sprintf("%.1fx", o / p) ")") : "not compared"
    r = ""
    for (i = 1; i <= ncfg; i++) if (cfg[i] ~ /^(ud|rc|pmix)$/ && numeric(get(cfg[i], "rate", "rate", 1)) && (r == "" || v[cfg[i], "rate"] + 0 > r + 0)) { r = v[cfg[i], "rate"]; rn = cfg[i] }
    printf "  spawn rate at least 50 per second: Plexus %s/s%s -> %s\n", show(r), r == "" ? "" : " (" rn ")", r == "" ? "not measured" : (r >= 50 ? "met" : "NOT met")
    # The issue's words are one parent spawning 4 children (1+4); 4+4 is the paper's Fig. 6 point.
    printf "  first Intercomm_merge after a spawn of 4 children under 100 us:"
    for (p = 1; p <= 4; p *= 4) {
        m = best_plexus("merge1" SUBSEP p SUBSEP 4, "mergec4", p); mn = bestname
        printf "%s %d+4 Plexus %s us%s -> %s", p == 1 ? "" : ";", p, show(m), m == "" ? "" : " (" mn ")",
            m == "" ? "not measured" : (m < 100 ? "met" : "NOT met")
    }
    printf "\n"
    ip = get("pmix", "lat" SUBSEP "inter" SUBSEP 8, "latency", 1); ia = get("pmix", "lat" SUBSEP "intra" SUBSEP 8, "intra", 2)
    printf "  inter-group 8-byte latency within 10%% of intra-group (pmix): %s us against %s us -> %s\n", show(ip), show(ia),
        numeric(ip) && numeric(ia) ? (ip <= 1.1 * ia ? "met" : "NOT met") : "not measured"
    # ud at least as fast as rc and pmix from some group size (parents + children) on.
    n = sorted_pairs(spawn_rows, keys); from = ""; ok = 0
    for (i = 1; i <= n; i++) {
        split(keys[i], a, SUBSEP)
        tot[i] = a[1] + a[2]
    }
    for (s = 2; s <= 12; s++) {
        all = 1; any = 0
        for (i = 1; i <= n; i++) {
            if (tot[i] < s) continue
            split(keys[i], a, SUBSEP)
            u = get("ud", "spawn" SUBSEP a[1] SUBSEP a[2], "spawn", a[1]); rr = get("rc", "spawn" SUBSEP a[1] SUBSEP a[2], "spawn", a[1]); pm = get("pmix", "spawn" SUBSEP a[1] SUBSEP a[2], "spawn", a[1])
            if (!numeric(u) || !numeric(rr) || !numeric(pm)) { all = 0; continue }
            any = 1
            if (u + 0 > rr + 0 || u + 0 > pm + 0) all = 0
        }
        if (any && all) { from = s; break }
    }
    printf "  spawn: ud at least as fast as rc and pmix from some group size on: %s\n",
        !("ud" in ran) ? "not measured (no ud runs)" : from == "" ? "NOT met on the measured sizes" : "met from " from " processes (parents + children) on"
}

END {
    ncfg = split(configs, cfg, ",")
    short["ud"] = "ud"; short["rc"] = "rc"; short["pmix"] = "pmix"; short["openmpi"] = "Open MPI"; short["mpich"] = "MPICH"
    name["ud"] = "Plexus ud"; name["rc"] = "Plexus rc"; name["pmix"] = "Plexus pmix"; name["openmpi"] = "Open MPI"; name["mpich"] = "MPICH"
    printf "Machine load (1, 5, 15 min): at the start %s, at the end %s\n", load0, load1
    printf "Columns: ud, rc = Plexus dpm_ud (dpm_ud_mode ud / rc); pmix = Plexus dpm_pmix; Plx/other = the best Plexus column over the better of Open MPI and MPICH\n"
    spawn_table()
    merge_and_rate()
    connect_table()
    p2p_tables()
    coll_tables()
    soak()
    targets()
    for (key in reason) { split(key, f, SUBSEP); printf "%s, %s on %s parent(s): %s\n", name[f[1]], f[2], f[3], reason[key] }
}
