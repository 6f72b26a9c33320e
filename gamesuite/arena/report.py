"""Tables and summaries of a match or a tournament, as text, CSV and JSON."""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Sequence
from typing import Any

from .game import MatchLimits
from .match import Tally
from .spec import EngineSpec
from .stats import Sprt, elo_interval, los, pentanomial_elo, pentanomial_interval, score_interval


def limits_text(tc: MatchLimits, engines: Sequence[EngineSpec]) -> str:
    """The limits of a match in words: the match's, then each engine's own (``mtdf@nodes=300000: nodes 300000``)."""
    own = [f"{e.label}: {tc.for_engine(e).describe()}" for e in engines if e.limits]
    if not own:
        return tc.describe()
    if tc.is_set and len(own) < len(engines):
        return f"{tc.describe()} ({'; '.join(own)})"
    return "; ".join(own)


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def standings(tally: Tally) -> list[dict[str, Any]]:
    """One row per engine, best score first: games, W/D/L, score with its 95% interval, Elo ± error.

    In a tournament the score and Elo are against the whole field (every
    encounter counted, Elo relative to the average opponent).
    """
    rows: list[dict[str, Any]] = []
    for e, label in enumerate(tally.labels):
        w, d, l = tally.total(e)
        sc = score_interval(w, d, l)
        el = elo_interval(w, d, l)
        places = tally.places[e]
        rows.append({
            "engine": label, "games": len(places), "encounters": w + d + l, "wins": w, "draws": d, "losses": l,
            "score": round(sc.value, 4), "score_lo": round(sc.lo, 4), "score_hi": round(sc.hi, 4),
            "elo": _num(el.value), "elo_lo": _num(el.lo), "elo_hi": _num(el.hi), "elo_error": _num(el.error),
            "mean_place": round(sum(places) / len(places), 3) if places else None,
        })
    rows.sort(key=lambda r: -r["score"])
    for i, r in enumerate(rows, 1):
        r["rank"] = i
    return rows


def _num(x: float) -> float | str:
    return round(x, 1) if math.isfinite(x) else ("inf" if x > 0 else "-inf")


def _elo_text(r: dict[str, Any]) -> str:
    e, err = r["elo"], r["elo_error"]
    if isinstance(e, str):
        return e
    return f"{e:+.1f} ± {err:.1f}" if not isinstance(err, str) else f"{e:+.1f} ± inf"


def standings_text(tally: Tally, players: int = 2) -> str:
    rows = standings(tally)
    width = max(6, *(len(r["engine"]) for r in rows))
    place = "  place" if players > 2 else ""
    out = [f"{'#':>2} {'engine':<{width}} {'games':>5} {'W':>5} {'D':>5} {'L':>5} {'score':>7} {'95% CI':>15} "
           f"{'Elo':>16}{place}"]
    for r in rows:
        ci = f"[{_pct(r['score_lo'])}, {_pct(r['score_hi'])}]"
        pl = f"  {r['mean_place']:.2f}" if players > 2 and r["mean_place"] is not None else ""
        out.append(f"{r['rank']:>2} {r['engine']:<{width}} {r['games']:>5} {r['wins']:>5} {r['draws']:>5} "
                   f"{r['losses']:>5} {_pct(r['score']):>7} {ci:>15} {_elo_text(r):>16}{pl}")
    return "\n".join(out)


def cross_table_text(tally: Tally) -> str:
    """Each cell: the row engine's points against the column engine, out of their encounters."""
    labels = tally.labels
    width = max(6, *(len(x) for x in labels))
    cells = [[""] * len(labels) for _ in labels]
    for a in range(len(labels)):
        for b in range(len(labels)):
            if a == b:
                cells[a][b] = "-"
                continue
            w, d, l = tally.wdl[a][b]
            n = w + d + l
            cells[a][b] = f"{w + d / 2:g}/{n}" if n else "."
    cw = max(6, *(len(c) for row in cells for c in row), *(len(x) for x in labels))
    head = " " * width + " " + " ".join(f"{x:>{cw}}" for x in labels)
    rows = [f"{labels[a]:<{width}} " + " ".join(f"{c:>{cw}}" for c in cells[a]) for a in range(len(labels))]
    return "\n".join([head, *rows])


def pair_summary(tally: Tally, a: int = 0, b: int = 1, sprt: Sprt | None = None) -> str:
    """Cute Chess style lines for engine ``a`` against ``b``."""
    w, d, l = tally.wdl[a][b]
    n = w + d + l
    sc, el = score_interval(w, d, l), elo_interval(w, d, l)
    lines = [
        f"Score of {tally.labels[a]} vs {tally.labels[b]}: {w} - {l} - {d}  [{sc.value:.3f}] {n}",
        f"W/D/L: {w}/{d}/{l}; score {_pct(sc.value)}, 95% CI [{_pct(sc.lo)}, {_pct(sc.hi)}]",
        f"Elo difference: {el.text()} (95% CI [{_fmt(el.lo)}, {_fmt(el.hi)}]), LOS {_pct(los(w, l))}",
    ]
    penta = tally.pentanomial[a][b]
    if sum(penta):
        ps, pe = pentanomial_interval(penta), pentanomial_elo(penta)
        lines.append(f"Pairs (same opening, colours swapped): {sum(penta)}, pentanomial {penta}; "
                     f"score {_pct(ps.value)}, 95% CI [{_pct(ps.lo)}, {_pct(ps.hi)}]; Elo {pe.text()}")
    if sprt is not None:
        lines.append(sprt.text(w, d, l))
    return "\n".join(lines)


def _fmt(x: float) -> str:
    return f"{x:+.1f}" if math.isfinite(x) else ("+inf" if x > 0 else "-inf")


def progress_text(tally: Tally, done: int, total: int, sprt: Sprt | None = None, width: int = 20) -> str:
    """One line: a bar, the games played, and the first pair's figures."""
    filled = int(width * done / total) if total else width
    bar = "#" * filled + "." * (width - filled)
    text = f"[{bar}] {done}/{total}"
    if len(tally.labels) >= 2:
        w, d, l = tally.wdl[0][1]
        if len(tally.labels) == 2:
            text += f"  +{w} ={d} -{l}"
            if w + d + l:
                text += f"  Elo {elo_interval(w, d, l).text()}"
            if sprt is not None:
                lo, hi = sprt.bounds
                text += f"  LLR {sprt.llr(w, d, l):.2f} [{lo:.2f}, {hi:.2f}]"
        else:
            lead = standings(tally)[0]
            text += f"  leader {lead['engine']} {_pct(lead['score'])}"
    if tally.errors:
        text += f"  errors {tally.errors}"
    return text


def adjudication_text(tally: Tally) -> str:
    if not tally.adjudications:
        return "adjudications: none"
    return "adjudications: " + ", ".join(f"{k} {v}" for k, v in sorted(tally.adjudications.items()))


def standings_csv(tally: Tally) -> str:
    rows = standings(tally)
    buf = io.StringIO()
    fields = ["rank", "engine", "games", "encounters", "wins", "draws", "losses", "score", "score_lo", "score_hi",
              "elo", "elo_lo", "elo_hi", "elo_error", "mean_place"]
    wr = csv.DictWriter(buf, fieldnames=fields, lineterminator="\n")
    wr.writeheader()
    for r in rows:
        wr.writerow({k: r[k] for k in fields})
    return buf.getvalue()


def tally_json(tally: Tally) -> dict[str, Any]:
    return {
        "engines": tally.labels,
        "games": tally.games,
        "errors": tally.errors,
        "adjudications": tally.adjudications,
        "standings": standings(tally),
        "wdl": {f"{tally.labels[a]} vs {tally.labels[b]}": tally.wdl[a][b]
                for a in range(len(tally.labels)) for b in range(len(tally.labels)) if a != b},
        "pentanomial": {f"{tally.labels[a]} vs {tally.labels[b]}": tally.pentanomial[a][b]
                        for a in range(len(tally.labels)) for b in range(len(tally.labels))
                        if a != b and any(tally.pentanomial[a][b])},
    }
