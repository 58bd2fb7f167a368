# Sourced by render.sh (it uses its sel, gp, $tmp and $out): the cost figure.
# Predicted time to solution against the phase-error budget (fdtdbench cost --save): the
# newest CSV of <machine>/cost/, one line per scheme and weighting.
plot_cost() { # MACHINE_DIR
    f=$(ls "$1"cost/cost-*.csv 2>/dev/null | sort | tail -n 1)
    [ -n "$f" ] || { echo "  cost: skipped (no cost/cost-*.csv: fdtdbench cost --save)"; return; }
    sel "" scheme,weights,phase_budget_deg,time_s "$f" | awk -F '\t' '
    { s = $1 ($2 == "spec" ? "" : " (" $2 ")"); if (!(s in n)) order[++ns] = s; n[s]++; row[s, n[s]] = $3 "\t" $4 }
    END { for (i = 1; i <= ns; i++) { if (i > 1) printf "\n\n"; print order[i]; for (j = 1; j <= n[order[i]]; j++) print row[order[i], j] } }' >"$tmp/cost.dat"
    ns=$(grep -c '^[^0-9]' "$tmp/cost.dat")
    [ "$ns" -gt 0 ] || { echo "  cost: skipped (no rows in $f)"; return; }
    what=$(sel "" size_wavelengths,distance_wavelengths,device,precision,coef "$f" | head -n 1 |
        awk -F '\t' '{ printf "%s wavelengths, distance %s wavelengths, %s %s %s coefficients", $1, $2, $3, $4, $5 }')
    est=
    sel "" throughput_source "$f" | grep -q '^ESTIMATE' && est="; throughput ESTIMATED from single-component kernels"
    gp cost.gp "Predicted time to solution against the phase-error budget ($what)" \
        "from $(basename "$f"): coarsest N per scheme within the budget, time = cells x steps / full-step throughput$est" \
        "$out/cost-vs-budget" "$tmp/cost.dat" "$ns"
}
