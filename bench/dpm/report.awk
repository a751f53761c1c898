# Tables of the DPM benchmark from run.sh's data file: lines "IMPL WHAT NUMBERS..." as dpm_bench
# prints them (spawn, rate, merge, latency, cycles, cycles_done) and "IMPL failed PART N REASON"
# for runs that ended without their numbers. Ratios: Plexus over the better of Open MPI and MPICH
# (< 1: Plexus faster), and Open MPI over Plexus for the issue's spawn target.
# usage: awk -v cycles=N -v load0=... -v load1=... -v impls=LIST [-v spawn_parents=1,2,4
#            -v spawn_children=1,2,4,8] -f report.awk DATA

function numeric(v) { return v ~ /^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?$/ }

function show(x) {
    if (!numeric(x)) return x
    if (x >= 100) return sprintf("%.0f", x)
    if (x >= 10) return sprintf("%.1f", x)
    return x >= 1 ? sprintf("%.2f", x) : sprintf("%.3f", x)
}

# The value of KEY for IMPL, or why there is none: "failed"/"hung" when the run for that part
# and parent count failed, "skipped" when the implementation never ran, else "-".
function get(impl, key, part, n) {
    if ((impl, key) in v) return v[impl, key]
    if (!(impl in ran)) return "skipped"
    if ((impl, part, n) in failed) return failed[impl, part, n]
    return "-"
}

function best_other(a, b) {
    if (!numeric(a)) return numeric(b) ? b : ""
    if (!numeric(b)) return a
    return a + 0 < b + 0 ? a : b
}

function ratio(p, b) {
    if (!numeric(p) || !numeric(b) || b + 0 <= 0) return "-"
    return sprintf(p / b >= 0.1 ? "%.2f" : "%.2g", p / b)
}

{ ran[$1] = 1 }
$2 == "failed" {
    why = $0; sub(/^[^ ]+ failed [^ ]+ [^ ]+ /, "", why)
    failed[$1, $3, $4] = why ~ /HUNG/ ? "hung" : "failed"
    reason[$1, $3, $4] = why
    next
}
$2 == "spawn" { v[$1, "spawn" SUBSEP $3 SUBSEP $4] = $5; lo[$1, $3, $4] = $6; hi[$1, $3, $4] = $8
                spawn_rows[$3 SUBSEP $4] = 1; iters = $9 }
$2 == "rate" { v[$1, "rate"] = $5; rate_n[$1] = $6 }
$2 == "merge" { v[$1, "merge1" SUBSEP $3] = $5; v[$1, "merge" SUBSEP $3] = $6; merge_rows[$3] = 1; merge_iters = $7 }
$2 == "latency" { v[$1, "lat" SUBSEP $3] = $4; med[$1, $3] = $5 }
$2 == "cycles" { last_progress[$1] = $3 }
$2 == "cycles_done" { done[$1] = $0 }

function spawn_table(    r, k, n, c, p, o, m, nrows, i, j, t, ps, cs) {
    nrows = 0
    # Every point asked for gets its row, measured or not (a hung run leaves the rest unmeasured).
    split(spawn_parents, ps, ","); split(spawn_children, cs, ",")
    for (i in ps) for (j in cs) if (ps[i] != "" && cs[j] != "") spawn_rows[ps[i] SUBSEP cs[j]] = 1
    for (r in spawn_rows) keys[++nrows] = r
    for (i = 1; i <= nrows; i++) for (j = i + 1; j <= nrows; j++) {
        split(keys[i], a, SUBSEP); split(keys[j], b, SUBSEP)
        if (a[1] + 0 > b[1] + 0 || (a[1] == b[1] && a[2] + 0 > b[2] + 0)) { t = keys[i]; keys[i] = keys[j]; keys[j] = t }
    }
    printf "\nSpawn latency: MPI_Comm_spawn at the parent root, ms, mean of %s spawns [fastest-slowest] (lower is better)\n", iters
    printf "%7s %8s %22s %22s %22s %11s %14s\n", "parents", "children", "Plexus", "Open MPI", "MPICH", "Plexus/best", "OpenMPI/Plexus"
    for (i = 1; i <= nrows; i++) {
        split(keys[i], a, SUBSEP); n = a[1]; c = a[2]
        p = get("plexus", "spawn" SUBSEP n SUBSEP c, "spawn", n)
        o = get("openmpi", "spawn" SUBSEP n SUBSEP c, "spawn", n)
        m = get("mpich", "spawn" SUBSEP n SUBSEP c, "spawn", n)
        printf "%7s %8s %22s %22s %22s %11s %14s\n", n, c, cell("plexus", p, n, c), cell("openmpi", o, n, c),
            cell("mpich", m, n, c), ratio(p, best_other(o, m)), ratio(o, p)
    }
}

function cell(impl, x, n, c) {
    if (!numeric(x)) return x
    return show(x) " [" show(lo[impl, n, c]) "-" show(hi[impl, n, c]) "]"
}

function merge_table(    n, p, o, m) {
    printf "\nIntercomm_merge after a spawn of as many children as parents, us, max over the processes: first merge / mean of %s later merges\n", merge_iters
    printf "%7s %24s %24s %24s %16s\n", "parents", "Plexus", "Open MPI", "MPICH", "Plexus/best (1st)"
    for (n = 1; n <= 64; n++) {
        if (!(n in merge_rows) && !(("plexus", "merge", n) in failed) && !(("openmpi", "merge", n) in failed) && !(("mpich", "merge", n) in failed)) continue
        p = get("plexus", "merge1" SUBSEP n, "merge", n); o = get("openmpi", "merge1" SUBSEP n, "merge", n); m = get("mpich", "merge1" SUBSEP n, "merge", n)
        printf "%7s %24s %24s %24s %16s\n", n, pair("plexus", n), pair("openmpi", n), pair("mpich", n), ratio(p, best_other(o, m))
    }
}

function pair(impl, n,    a, b) {
    a = get(impl, "merge1" SUBSEP n, "merge", n); b = get(impl, "merge" SUBSEP n, "merge", n)
    return numeric(a) ? show(a) " / " show(b) : a
}

function latency_table(    w, i, impl, x, intra, inter) {
    printf "\n8-byte ping-pong, one-way us, fastest of 5 batches (median batch in brackets)\n"
    printf "%-44s %18s %18s %18s\n", "", "Plexus", "Open MPI", "MPICH"
    split("intra inter merged", w, " ")
    label["intra"] = "two ranks of one job (intra-group)"
    label["inter"] = "parent <-> child, spawn's inter-communicator"
    label["merged"] = "parent <-> child, merged intra-communicator"
    for (i = 1; i <= 3; i++) {
        printf "%-44s", label[w[i]]
        for (k = 1; k <= 3; k++) {
            impl = order[k]
            x = get(impl, "lat" SUBSEP w[i], w[i] == "intra" ? "intra" : "latency", w[i] == "intra" ? 2 : 1)
            printf " %18s", numeric(x) ? show(x) " [" show(med[impl, w[i]]) "]" : x
        }
        printf "\n"
    }
    printf "%-44s", "inter-group / intra-group"
    for (k = 1; k <= 3; k++) {
        impl = order[k]
        intra = get(impl, "lat" SUBSEP "intra", "intra", 2); inter = get(impl, "lat" SUBSEP "inter", "latency", 1)
        printf " %18s", ratio(inter, intra)
    }
    printf "\n"
}

function rate_and_cycles(    k, impl, f, x) {
    printf "\nSpawn rate: spawn + disconnect cycles of one child per second (higher is better)\n"
    for (k = 1; k <= 3; k++) {
        impl = order[k]; x = get(impl, "rate", "rate", 1)
        printf "  %-9s %s%s\n", name[impl], numeric(x) ? show(x) : x, numeric(x) ? " (" rate_n[impl] " cycles)" : ""
    }
    printf "\n%d spawn / exchange / disconnect cycles of one child (must finish; each wait bounded)\n", cycles
    for (k = 1; k <= 3; k++) {
        impl = order[k]
        if (impl in done) {
            split(done[impl], f, " ")
            printf "  %-9s %s of %s in %s s (%s/s); parent's fds %s -> %s, threads %s -> %s%s\n", name[impl], f[3], f[4], show(f[5]), show(f[6]), f[7], f[8], f[9], f[10],
                f[3] < f[4] ? " (stopped by the time budget)" : ""
        } else if ((impl, "cycles", 1) in failed) {
            x = reason[impl, "cycles", 1]
            at = match(x, /cycle [0-9]+/) ? "in " substr(x, RSTART, RLENGTH) : "(cycle unknown)"
            printf "  %-9s %s %s (last progress line: %d done): %s\n", name[impl], failed[impl, "cycles", 1], at,
                last_progress[impl] + 0, x
        } else printf "  %-9s %s\n", name[impl], impl in ran ? "-" : "skipped"
    }
}

function targets(    p, o, ip, ia) {
    printf "\nIssue 19's targets\n"
    p = get("plexus", "spawn" SUBSEP 1 SUBSEP 1, "spawn", 1); o = get("openmpi", "spawn" SUBSEP 1 SUBSEP 1, "spawn", 1)
    printf "  spawn of one child at least 4x faster than Open MPI, aiming at 20 ms: Plexus %s ms, Open MPI %s ms -> %s\n",
        show(p), show(o), numeric(p) && numeric(o) ? (o / p >= 4 ? "met (" sprintf("%.1fx", o / p) ")" : "NOT met (" sprintf("%.1fx", o / p) ")") : "not compared"
    ip = get("plexus", "lat" SUBSEP "inter", "latency", 1); ia = get("plexus", "lat" SUBSEP "intra", "intra", 2)
    printf "  inter-group 8-byte latency within 10%% of intra-group: Plexus %s us against %s us -> %s\n", show(ip), show(ia),
        numeric(ip) && numeric(ia) ? (ip <= 1.1 * ia ? "met" : "NOT met") : "not measured"
}

END {
    order[1] = "plexus"; order[2] = "openmpi"; order[3] = "mpich"
    name["plexus"] = "Plexus"; name["openmpi"] = "Open MPI"; name["mpich"] = "MPICH"
    printf "Machine load (1, 5, 15 min): at the start %s, at the end %s\n", load0, load1
    spawn_table()
    merge_table()
    latency_table()
    rate_and_cycles()
    targets()
    for (key in reason) { split(key, f, SUBSEP); printf "%s, %s on %s parent(s): %s\n", name[f[1]], f[2], f[3], reason[key] }
}
