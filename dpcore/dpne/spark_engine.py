"""DPNE on Apache Spark (003 §2 "Scaling up DPNE"): the same release as the local engine, for one seed.

Needs the optional extra ``[spark]`` (pyspark, with pyarrow) and Java 17. pyspark is imported only
when :func:`run_dpne_spark` runs.

Where the work happens:

* **Executors (DataFrame operations).** Reading and tokenising the files (one task per file, with
  :func:`dpcore.text.stream.iter_records` and :func:`dpcore.tokenize` — the local reader's own code); per
  length k the candidate k-grams at every position whose (k−1)-gram was released (a window ``lead``
  over each sentence gives the next position's (k−1)-gram and the k-th token: both-sides or single-side
  pruning), the distinct (user, k-gram) pairs, the contribution limit (``row_number`` over each user's
  k-grams ordered by the keyed priority), the weighted histogram (``sum`` of 1/√(kept) per k-gram),
  the noise and the threshold. Keys, priorities and noise are computed by :mod:`dpcore.mechanisms.keyed` inside
  ``mapInArrow`` (vectorised numpy on Arrow batches; no pandas).
* **Driver (public, small).** The accounting — σ, σ_k (:func:`dpcore.dpne.dpne_noise_scales`), ρ_1
  (:func:`dpcore.dpne.dpsu_threshold_for_sigma`), |V_k| and the zero-weight sampling space
  (:class:`dpcore.dpne.space._ValidSpace`), ρ_k (:func:`dpcore.dpne.spurious_threshold`) and the zero-weight
  draw (:func:`dpcore.dpne.space.zero_weight_draw`) — imported from the local engine, not copied. The
  driver holds S_1..S_k (the output) and, per length, the keys of the supported valid k-grams (to
  exclude them from the zero-weight draw).

Equality with the local engine rests on: item keys from the tokens' text, user keys from the user
ids' text, canonical (key-sorted) S_k on both sides, the same keyed draws, and the same order inside a
user's window (random: ascending priority; most-frequent: descending count, then descending priority).
A histogram value is a sum of a few 1/√t terms, added in another order by Spark; a release could only
differ if a noisy value fell within ~10⁻¹⁵ of ρ_k.

Departures: the Policy Gaussian (``policy="policy"``) is local only (a sequential loop over users);
the evaluation-only diagnostics (spurious counts) are not computed here.
"""

from __future__ import annotations

import math
import os
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..mechanisms.keyed import STREAM_NOISE, STREAM_SELECT, fold_keys, keyed_normal, keyed_uniform, text_key, token_keys
from ..text.stream import input_files
from ..validation import check_choice, check_delta, check_epsilon, check_int, check_real
from .accounting import (
    PRUNING_RULES,
    SELECTION_RULES,
    _spurious_probability,
    dpne_noise_scales,
    dpsu_threshold_for_sigma,
    spurious_threshold,
)
from .batch import BatchRelease, check_enough_users, dpne_guarantee
from .selection import dpne_level_seed, dpne_release_seed, dpne_selection_seed
from .space import _ValidSpace, zero_weight_draw

__all__ = ["EngineUnavailable", "run_dpne_spark", "spark_session", "worker_python"]

_SHIPPED: set = set()  # SparkContext ids that already received the dpcore zip
_BATCH = 1 << 20


class EngineUnavailable(RuntimeError):
    """The Spark engine cannot start (pyspark missing, Java missing); the message says what to install."""


def _import_pyspark():
    try:
        import pyspark  # noqa: F401 (imported only to see whether the optional package is installed)
        from pyspark.sql import SparkSession  # noqa: F401 (imported only to see whether the optional package is installed)
    except ImportError:
        raise EngineUnavailable(
            "the spark engine needs pyspark: pip install 'dp-text-dashboard[spark]' "
            "(and Java 17, e.g. Debian's openjdk-17-jre-headless)"
        ) from None


PYTHON_VARIABLES = ("PYSPARK_PYTHON", "PYSPARK_DRIVER_PYTHON")
"""The environment variables that name the interpreter of Spark's Python workers and driver."""


def worker_python() -> str:
    """The interpreter Spark's Python workers run: ``PYSPARK_PYTHON`` when the user set it, else this one.

    pyspark starts its workers with ``PYSPARK_PYTHON``, or ``python3`` from PATH when it is unset
    (``SparkContext.pythonExec``; the ``spark.pyspark.python`` setting does not reach the SQL workers that
    ``mapInArrow`` runs on). Run from a virtualenv that is not first on PATH, the workers were another
    Python without this package's dependencies (``No module named 'pyarrow'``). So both variables are set
    to ``sys.executable`` unless the user set them (a cluster whose workers use another path sets them).
    """
    for name in PYTHON_VARIABLES:
        if not os.environ.get(name):
            os.environ[name] = sys.executable
    return os.environ["PYSPARK_PYTHON"]


def spark_session(master: str = "local[*]", *, driver_memory: str = "2g", conf: dict | None = None):
    """A SparkSession for DPNE (UI off, Python workers = this interpreter unless PYSPARK_PYTHON says
    otherwise: :func:`worker_python`)."""
    _import_pyspark()
    from pyspark.sql import SparkSession

    python = worker_python()
    b = (
        SparkSession.builder.master(master)
        .appName("dpcore-dpne")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.memory", driver_memory)
        .config("spark.sql.shuffle.partitions", "8")
        .config("spark.pyspark.python", python)
        .config("spark.pyspark.driver.python", os.environ["PYSPARK_DRIVER_PYTHON"])
    )
    for k, v in (conf or {}).items():
        b = b.config(k, v)
    try:
        return b.getOrCreate()
    except RuntimeError as exc:  # e.g. Java missing: PySparkRuntimeError "Java gateway process exited"
        raise EngineUnavailable(
            f"Spark could not start ({exc}); the spark engine needs Java 17 "
            "(Debian: apt-get install openjdk-17-jre-headless)"
        ) from None


def _ship_dpcore(spark) -> None:
    """Send this dpcore (as a zip) to the Python workers, so they run the driver's code."""
    sc = spark.sparkContext
    ident = id(sc._jsc)
    if ident in _SHIPPED:
        return
    pkg = Path(__file__).resolve().parents[1]  # the dpcore package (this file is dpcore/dpne/spark_engine.py)
    fd, zpath = tempfile.mkstemp(prefix="dpcore-", suffix=".zip")
    os.close(fd)
    with zipfile.ZipFile(zpath, "w", zipfile.ZIP_DEFLATED) as z:
        for f in pkg.rglob("*.py"):
            z.write(f, Path("dpcore") / f.relative_to(pkg))
    sc.addPyFile(zpath)
    _SHIPPED.add(ident)


# ------------------------------------------------------------------------------------------------ executors
def _u(col) -> np.ndarray:
    return col.to_numpy(zero_copy_only=False).astype(np.int64, copy=False).view(np.uint64)


def _i(arr: np.ndarray) -> np.ndarray:
    return np.asarray(arr, dtype=np.uint64).view(np.int64)


def _read_partition(batches, user_column: str, text_column: str):
    """Rows (file id, path) → position rows (sid, pos, user_key, tok_key, h1, tok) as Arrow batches."""
    import pyarrow as pa

    from ..text.corpus import tokenize
    from ..text.stream import iter_records

    names = ["sid", "pos", "user_key", "tok_key", "h1", "tok"]
    tok_cache: dict[str, int] = {}
    for batch in batches:
        fids = batch.column("fid").to_pylist()
        paths = batch.column("path").to_pylist()
        for fid, path in zip(fids, paths):
            sid = fid << 40
            cols: dict[str, list] = {n: [] for n in ("sid", "pos", "user_key", "tok")}
            for uid, text in iter_records(path, user_column=user_column, text_column=text_column):
                ukey = text_key(uid)
                for sent in tokenize(text):
                    n = len(sent)
                    cols["sid"].extend([sid] * n)
                    cols["pos"].extend(range(n))
                    cols["user_key"].extend([ukey] * n)
                    cols["tok"].extend(sent)
                    sid += 1
                if len(cols["tok"]) >= _BATCH:
                    yield _position_batch(pa, names, cols, tok_cache)
                    cols = {n: [] for n in cols}
            if cols["tok"]:
                yield _position_batch(pa, names, cols, tok_cache)


def _position_batch(pa, names, cols, cache):
    toks = cols["tok"]
    new = [w for w in dict.fromkeys(toks) if w not in cache]
    if new:
        cache.update(zip(new, token_keys(new).tolist()))
    tk = np.fromiter((cache[w] for w in toks), dtype=np.uint64, count=len(toks))
    arrays = [
        pa.array(np.asarray(cols["sid"], dtype=np.int64)),
        pa.array(np.asarray(cols["pos"], dtype=np.int32)),
        pa.array(_i(np.asarray(cols["user_key"], dtype=np.uint64))),
        pa.array(_i(tk)),
        pa.array(_i(fold_keys(None, tk))),
        pa.array(toks, type=pa.string()),
    ]
    return pa.RecordBatch.from_arrays(arrays, names=names)


def _add_columns(df, fields: list, fn):
    """``df`` plus the columns ``fields`` ([(name, spark type)]) computed by ``fn(batch) -> [numpy arrays]``."""
    from pyspark.sql.types import StructField, StructType

    schema = StructType(df.schema.fields + [StructField(n, t) for n, t in fields])
    names = [n for n, _ in fields]

    def run(batches):
        import pyarrow as pa

        for b in batches:
            new = fn(b)
            yield pa.RecordBatch.from_arrays(list(b.columns) + [pa.array(a) for a in new], names=b.schema.names + names)

    return df.mapInArrow(run, schema)


# ------------------------------------------------------------------------------------------------ driver
def _collect(df, cols):
    t = df.select(*cols).toArrow()
    return {c: t.column(c).to_numpy() for c in cols}


def run_dpne_spark(
    path,
    *,
    epsilon,
    delta,
    max_length,
    contribution_limit,
    eta,
    noise_decay=1.0,
    pruning="both",
    selection="random",
    seed: int,
    user_column="user",
    text_column="text",
    master="local[*]",
    spark=None,
    progress=None,
    driver_memory="2g",
) -> BatchRelease:
    """DPNE (003 Algorithm 1, scalable) on Spark. Same arguments as :func:`dpcore.dpne.run_dpne_local`;
    ``spark`` (optional) an existing SparkSession (else one is started on ``master`` and stopped after)."""
    epsilon, delta = check_epsilon(epsilon=epsilon), check_delta(delta=delta)
    T = check_int("max_length", max_length, low=1, high=50)
    limit = check_int("contribution_limit", contribution_limit, low=1)
    eta = check_real("eta", eta, low=0.0, high=1.0, high_inclusive=False)
    check_choice("pruning", pruning, PRUNING_RULES)
    check_choice("selection", selection, SELECTION_RULES)
    seed = check_int("seed", seed, low=0)
    files = [str(f) for f in input_files(path)]
    say = progress or (lambda text: None)

    own = False
    if spark is None:
        _import_pyspark()
        from pyspark.sql import SparkSession

        spark = SparkSession.getActiveSession()  # e.g. a notebook's or a test session's: used, not stopped
        if spark is None:
            spark, own = spark_session(master, driver_memory=driver_memory), True
    try:
        _ship_dpcore(spark)
        return _run(
            spark,
            files,
            epsilon=epsilon,
            delta=delta,
            T=T,
            limit=limit,
            eta=eta,
            c=noise_decay,
            pruning=pruning,
            selection=selection,
            seed=seed,
            user_column=user_column,
            text_column=text_column,
            say=say,
        )
    finally:
        if own:
            spark.stop()


def _run(
    spark, files, *, epsilon, delta, T, limit, eta, c, pruning, selection, seed, user_column, text_column, say
) -> BatchRelease:
    sigma, sigmas = dpne_noise_scales(epsilon=epsilon, delta=delta, max_length=T, noise_decay=c)
    rho1 = dpsu_threshold_for_sigma(sigma=sigmas[0], delta=delta, contribution_limit=limit)
    # the keys of the local engine (weighted Gaussian): the seed and every parameter; η from length 3 on
    base = dpne_release_seed(
        seed,
        epsilon=epsilon,
        delta=delta,
        max_length=T,
        contribution_limit=limit,
        noise_decay=c,
        pruning=pruning,
        selection=selection,
    )
    keys = _Keys(
        level_seed={k: dpne_level_seed(base, k, eta, "weighted") for k in range(1, T + 1)},
        select_seed=dpne_selection_seed(seed, contribution_limit=limit, selection=selection),  # the selection's own
        selection=selection,
        limit=limit,
    )
    thresholds, valid_counts, sets = {1: rho1}, {}, {}

    say("Spark: reading and tokenising")
    P = _read_positions(spark, files, user_column, text_column)
    say("Spark: length 1")
    s1, P = _release_unigrams(spark, P, keys, sigma_1=float(sigmas[0]), rho_1=rho1)
    sets[1] = set(s1.words.tolist())
    prev = _Previous(keys=s1.keys, rows=s1.words.reshape(-1, 1), last=s1.tok)

    for k in range(2, T + 1):
        sets.setdefault(k, set())
        m = prev.keys.size
        if m == 0:
            break
        space = _ValidSpace(pruning, m, s1.keys.size, prev.a, prev.b, prev.prev_size)
        n_valid = int(space.size)
        valid_counts[k] = n_valid
        sigma_k = float(sigmas[k - 1])
        if n_valid == 0:
            thresholds[k] = math.inf
            break
        p_zero = _spurious_probability(eta, m, n_valid)
        rho_k = spurious_threshold(sigma_k, eta, m, n_valid)
        thresholds[k] = rho_k
        say(f"Spark: length {k}, |S_{k - 1}| = {m:,}, |V_{k}| = {n_valid:,}")

        C = _candidates(P, k, pruning)
        got = _level_release(C.withColumnRenamed("hp", "a_key"), k, sigma_k, rho_k, ["a_key", "b_key"], keys)
        prev = _level_sets(got, space, prev, s1, k=k, p_zero=p_zero, noise_seed=keys.level_seed[k], pruning=pruning)
        sets[k] = {" ".join(r) for r in prev.rows.tolist()}
        if prev.keys.size == 0:
            continue
        P = _advance_positions(spark, P, C, prev.keys)
    for k in range(1, T + 1):
        sets.setdefault(k, set())
    return BatchRelease(
        sets=sets,
        sigma=float(sigma),
        sigmas={k: float(s) for k, s in enumerate(sigmas, start=1)},
        thresholds=thresholds,
        valid_counts=valid_counts,
        guarantee=dpne_guarantee(epsilon=epsilon, delta=delta, max_length=T),
    )


@dataclass(frozen=True)
class _Keys:
    """The keyed draws' seeds (per length for the noise; one for the selection) and the selection rule."""

    level_seed: dict
    select_seed: int
    selection: str
    limit: int


@dataclass(frozen=True)
class _Unigrams:
    """S_1 in canonical order: its keys, words and token keys."""

    keys: np.ndarray
    words: np.ndarray
    tok: np.ndarray


@dataclass(frozen=True)
class _Previous:
    """S_{k−1} as the next length reads it: keys, rows of words, last tokens' keys and (both sides) its
    (prefix, suffix) index pairs into S_{k−2}, whose size is ``prev_size``."""

    keys: np.ndarray
    rows: np.ndarray
    last: np.ndarray
    a: np.ndarray | None = None
    b: np.ndarray | None = None
    prev_size: int = 0


def _read_positions(spark, files, user_column, text_column):
    """The position rows (sid, pos, user_key, tok_key, h1, tok) of every token, read and tokenised on the
    executors (one task per file); refuses a corpus of fewer than two users."""
    from pyspark.sql import functions as F

    fdf = spark.createDataFrame([(i, f) for i, f in enumerate(files)], "fid long, path string")
    fdf = fdf.repartition(max(1, min(len(files), 64)))
    schema = "sid long, pos int, user_key long, tok_key long, h1 long, tok string"
    P = fdf.mapInArrow(lambda it: _read_partition(it, user_column, text_column), schema).localCheckpoint(eager=True)
    first, last = P.agg(F.min("user_key"), F.max("user_key")).first()  # position rows: users with text only
    check_enough_users(0 if first is None else 1 if first == last else 2)
    return P


def _level_release(C, k, sigma_k, rho_k, extra, keys: _Keys):
    """C: candidate rows (user_key, h, extra...) → histogram rows (h, extra..., released) as numpy."""
    from pyspark.sql import Window
    from pyspark.sql import functions as F
    from pyspark.sql.types import BooleanType, DoubleType

    select_seed, noise_seed, limit = keys.select_seed, keys.level_seed[k], keys.limit
    agg = [F.first(x).alias(x) for x in extra]
    pairs = C.groupBy("user_key", "h").agg(F.count(F.lit(1)).alias("cnt"), *agg)
    pairs = _add_columns(
        pairs,
        [("r", DoubleType())],
        lambda b: [keyed_uniform(select_seed, _u(b.column("user_key")), _u(b.column("h")), stream=STREAM_SELECT, k=k)],
    )
    by_user = Window.partitionBy("user_key")
    order = (
        Window.partitionBy("user_key").orderBy(F.col("r").asc())
        if keys.selection == "random"
        else Window.partitionBy("user_key").orderBy(F.col("cnt").desc(), F.col("r").desc())
    )
    kept = (
        pairs.withColumn("n", F.count(F.lit(1)).over(by_user))
        .withColumn("rank", F.row_number().over(order))
        .filter(F.col("rank") <= limit)
        .withColumn("w", 1.0 / F.sqrt(F.least(F.col("n"), F.lit(limit)).cast("double")))
    )
    H = kept.groupBy("h").agg(F.sum("w").alias("hist"), *agg)

    def noisy(b):
        z = keyed_normal(noise_seed, _u(b.column("h")), stream=STREAM_NOISE, k=k)
        return [b.column("hist").to_numpy() + sigma_k * z > rho_k]

    H = _add_columns(H, [("released", BooleanType())], noisy)
    return _collect(H, ["h", "released", *extra])


def _release_unigrams(spark, P, keys: _Keys, *, sigma_1, rho_1):
    """S_1 (canonical order) and the position rows marked with whether their token is in it (``in_s1``, and
    ``hp``: the 1-gram's key where it is)."""
    from pyspark.sql import functions as F

    C = P.withColumnRenamed("h1", "h").select("user_key", "h", "tok_key", "tok")
    got = _level_release(C, 1, sigma_1, rho_1, ["tok_key", "tok"], keys)
    rel = got["released"].astype(bool)
    h = got["h"].view(np.uint64)[rel]
    order = np.argsort(h, kind="stable")
    s1 = _Unigrams(
        keys=h[order],
        words=np.asarray(got["tok"], dtype=object)[rel][order],
        tok=got["tok_key"].view(np.uint64)[rel][order],
    )
    s1_df = spark.createDataFrame([(int(x),) for x in _i(s1.keys)], "h1 long").withColumn("in_s1", F.lit(True))
    P = (
        P.drop("tok")
        .join(F.broadcast(s1_df), on="h1", how="left")
        .withColumn("in_s1", F.coalesce(F.col("in_s1"), F.lit(False)))
        .withColumn("hp", F.when(F.col("in_s1"), F.col("h1")))
        .localCheckpoint(eager=True)
    )
    return s1, P


def _candidates(P, k, pruning):
    """The candidate k-grams (sid, pos, user_key, hp, b_key, last, h) at every alive position: a window ``lead``
    over each sentence gives the next position's (k−1)-gram (both sides) or the k-th token in S_1 (single side)."""
    from pyspark.sql import Window
    from pyspark.sql import functions as F
    from pyspark.sql.types import LongType

    w = Window.partitionBy("sid").orderBy("pos")
    C = P.withColumn("last", F.lead("tok_key", k - 1).over(w))
    if pruning == "both":
        C = C.withColumn("b_key", F.lead("hp", 1).over(w))
        C = C.filter(F.col("hp").isNotNull() & F.col("b_key").isNotNull())
    else:
        C = (
            C.withColumn("last_in", F.lead("in_s1", k - 1).over(w))
            .withColumn("b_key", F.lead("h1", k - 1).over(w))
            .filter(F.col("hp").isNotNull() & F.col("last_in"))
        )
    C = _add_columns(
        C.select("sid", "pos", "user_key", "hp", "b_key", "last"),
        [("h", LongType())],
        lambda b: [_i(fold_keys(_u(b.column("hp")), _u(b.column("last"))))],
    )
    return C.localCheckpoint(eager=True)


def _level_sets(got, space, prev: _Previous, s1: _Unigrams, *, k, p_zero, noise_seed, pruning) -> _Previous:
    """S_k on the driver (canonical order): the released histogram rows, then the zero-weight draw of the local
    engine over the valid space without the supported k-grams."""
    m, n_valid = prev.keys.size, int(space.size)
    a_all = np.searchsorted(prev.keys, got["a_key"].view(np.uint64))
    b_ref = prev.keys if pruning == "both" else s1.keys
    b_all = np.searchsorted(b_ref, got["b_key"].view(np.uint64))
    support_space = np.sort(a_all * space.width + b_all)
    sampled = zero_weight_draw(space, noise_seed, k, n_valid - int(support_space.size), p_zero, support_space)
    rel = got["released"].astype(bool)
    A = np.concatenate([a_all[rel], sampled // space.width]).astype(np.int64)
    B = np.concatenate([b_all[rel], sampled % space.width]).astype(np.int64)
    last_words = prev.rows[B, -1] if pruning == "both" else s1.words[B]
    last_tok = prev.last[B] if pruning == "both" else s1.tok[B]
    keys = fold_keys(prev.keys[A], last_tok)
    perm = np.argsort(keys, kind="stable")
    rows = np.hstack([prev.rows[A], np.asarray(last_words, dtype=object).reshape(-1, 1)])[perm]
    a, b = (A[perm], B[perm]) if pruning == "both" else (None, None)
    return _Previous(keys=keys[perm], rows=rows, last=last_tok[perm], a=a, b=b, prev_size=m)


def _advance_positions(spark, P, C, released_keys):
    """The position rows with ``hp`` = the key of the released k-gram that starts there (null elsewhere)."""
    from pyspark.sql import functions as F

    alive = spark.createDataFrame([(int(x),) for x in _i(released_keys)], "h long").withColumn("alive", F.lit(True))
    nxt = C.join(F.broadcast(alive), on="h", how="inner").select("sid", "pos", F.col("h").alias("hp_new"))
    return (
        P.join(nxt, on=["sid", "pos"], how="left")
        .drop("hp")
        .withColumnRenamed("hp_new", "hp")
        .localCheckpoint(eager=True)
    )
