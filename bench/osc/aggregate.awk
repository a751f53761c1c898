# The best value of each point over the runs of bench/osc/run.sh: input files raw/CONFIG-REP.txt
# with osc_bench's lines "TEST SIZE BEST MEDIAN WORST ITERS"; output "TEST SIZE CONFIG VALUE RUNS"
# (lowest for latency and ghost, highest for bandwidth, *_bw_* tests). A point some configuration
# printed that another never printed is "failed" for that one.
# usage: awk -v configs="plexus-auto openmpi ..." -f aggregate.awk raw/*-[0-9]*.txt

function config_of(file,    f) {
    f = file
    sub(/.*\//, "", f)
    sub(/-[0-9]+\.txt$/, "", f)
    return f
}

FNR == 1 { cfg = config_of(FILENAME); ran[cfg] = 1 }
NF == 6 && $1 ~ /^[a-z_]+$/ && $3 ~ /^[0-9.]+$/ {
    k = $1 SUBSEP $2
    if (!(k in seen)) { seen[k] = 1; order[++n] = k }
    runs[k, cfg]++
    if (!((k, cfg) in best) || ($1 ~ /_bw_/ ? $3 + 0 > best[k, cfg] : $3 + 0 < best[k, cfg])) best[k, cfg] = $3 + 0
}
END {
    nc = split(configs, cl, " ")
    for (i = 1; i <= n; i++) {
        split(order[i], p, SUBSEP)
        for (c = 1; c <= nc; c++) {
            if (!(cl[c] in ran)) continue
            if ((order[i], cl[c]) in best) print p[1], p[2], cl[c], best[order[i], cl[c]], runs[order[i], cl[c]]
            else print p[1], p[2], cl[c], "failed", 0
        }
    }
}
