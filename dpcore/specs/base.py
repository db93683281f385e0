"""One frozen spec per computation (issue 22): the parameters, the seed derivation, the run and the record.

API (everything a page, an export, a replay or a generated notebook needs):

* ``Spec`` — base of every spec: a frozen, keyword-only dataclass whose fields are dpcore parameters
  (``seed``, ``corpus`` = the corpus id ``"classroom" | "chat" | "paper" | "upload"``, ``corpus_hash`` =
  ``Corpus.content_hash``; a subclass adds ε, δ and the page's knobs). Subclasses:
    - set ``KIND`` (the registry name, e.g. ``"dpne"``) and optionally ``VERSION`` (default 1);
    - override ``_validated(self) -> dict`` returning ``{field: normalised value}`` for the fields they check
      with :mod:`dpcore.validation` (``ValueError`` naming parameter, rule and value); the base sets them on
      the frozen instance, so ``DpneSpec(epsilon=4)`` holds ``4.0``;
    - implement ``run(self, corpus=None)`` → the release (and evaluation), drawing only from ``self.rng(...)``;
    - implement ``numbers(self, result) -> dict`` → the key numbers the page shows (JSON-able; the replay test and
      the generated notebook compare these);
    - optionally set ``NOTEBOOK_FIGURE`` (plotly code, as text, that builds ``fig`` from ``spec`` and ``result``;
      dpcore itself never imports plotly) and ``USES_CORPUS = False`` for specs without data.
  Subclasses register themselves (``KIND`` → class) when defined.
* ``spec.rng(*salt)`` — THE seed derivation: ``default_rng(SeedSequence([seed, crc32(repr(s)) for s in salt]))``
  (the one that was ``dpui.common.state.rng_for``; :func:`derive_rng` is the same as a function). Every parameter that
  changes a release goes into its salt.
* ``spec.record()`` — ``{"spec": KIND, "version": VERSION, <every field>}``, JSON-able and complete;
  ``Spec.from_record(record)`` (on the base: dispatches on ``record["spec"]``) rebuilds an equal spec;
  ``spec.key(without=(...))`` — a SHA-256 of the record (a cache key; ``without``: fields a part ignores).
* ``replay(record, corpus=None)`` — ``Spec.from_record(record).run(corpus)`` after checking that the corpus is the
  one the record names (its content hash); exported as ``dpcore.replay``.
* Secret noise (issue 30 item 1): ``secret_record(record)`` is the record an export of the app's *private* noise mode
  carries — no ``seed``, and ``"noise": "secret"``. ``Spec.from_record`` of such a record draws a fresh seed from the
  operating system's entropy and warns (:class:`SecretNoiseWarning`): only the numbers a spec lists in
  ``NOISE_FREE`` (the keys of ``numbers()`` that do not depend on the seed; ``spec.noise_free(numbers)``) reproduce
  the export, every other number is a fresh draw.
* ``load_corpus(corpus_id, which="private", path=..., user_column=..., text_column=...)`` — the corpus a spec names
  (the sample sizes, the real chat, or an uploaded file's path).
* :mod:`dpcore.specs.notebook` — ``script(spec)`` / ``notebook(spec)``: a runnable ``.py`` and ``.ipynb`` that
  rebuild a page's result with dpcore only.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import secrets
import warnings
import zlib
from typing import Any, ClassVar, Self

import numpy as np

from ..errors import UserError
from ..validation import check_choice, check_int
from .knobs import Salt, stream_fields

__all__ = [
    "Spec",
    "derive_rng",
    "replay",
    "load_corpus",
    "spec_kinds",
    "CORPUS_IDS",
    "jsonable",
    "SECRET_NOISE",
    "SecretNoiseWarning",
    "secret_record",
]

CORPUS_IDS = ("classroom", "paper", "chat", "upload")
"""The corpus ids a spec may name: the synthetic sample sizes, the real chat, an uploaded file."""

_REGISTRY: dict[str, type[Spec]] = {}

SECRET_NOISE = "secret"
"""``record["noise"]`` of a record made in the app's private noise mode: its seed was secret and is not in it."""


class SecretNoiseWarning(UserWarning):
    """A record whose noise was secret was rebuilt: its noise is drawn afresh, only its noise-free numbers reproduce."""


def secret_record(record: dict) -> dict:
    """The record an export carries in the app's private noise mode: ``record`` without its ``seed`` and with
    ``"noise": "secret"`` (:data:`SECRET_NOISE`). Rebuilding it (:meth:`Spec.from_record`, :func:`replay`) draws
    fresh noise and says so."""
    out = {k: v for k, v in record.items() if k != "seed"}
    out["noise"] = SECRET_NOISE
    return out


def derive_rng(seed: int, *salt) -> np.random.Generator:
    """A generator seeded by ``seed`` and a salt (e.g. ``("bayes", repetition)``): the one seed derivation.

    ``default_rng(SeedSequence([seed] + [crc32(repr(s)) for s in salt]))``: the same seed and salt always give the
    same draws (a shared link or an export reproduces the view), different salts independent streams. ``repr`` of
    a salt part is what is hashed, so ``1`` and ``1.0`` are different salts: build a salt from the spec's fields,
    never from a widget's raw value.
    """
    words = [check_int("seed", seed, low=0)] + [zlib.crc32(repr(s).encode()) for s in salt]
    return np.random.default_rng(np.random.SeedSequence(words))


def jsonable(value):
    """A JSON-able copy of a field value (tuples → lists, numpy scalars → Python, dicts with str keys)."""
    if isinstance(value, (np.floating, np.integer, np.bool_)):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, (tuple, list)):
        return [jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, float) and not math.isfinite(value):
        raise UserError(f"a spec field must be finite to be recorded, got {value!r}")
    return value


def _from_json(value):
    """Lists (JSON arrays) back to tuples: spec fields hold tuples, so a replayed spec equals the page's."""
    if isinstance(value, list):
        return tuple(_from_json(v) for v in value)
    return value


@dataclasses.dataclass(frozen=True, kw_only=True)
class Spec:
    """Base of the frozen specs (module docstring: the API). Fields: ``seed``, ``corpus``, ``corpus_hash``."""

    KIND: ClassVar[str] = ""
    VERSION: ClassVar[int] = 1
    REPLAYS: ClassVar[tuple[int, ...]] = ()
    """Older record versions this spec still rebuilds (``from_record``): such a spec keeps its version
    (``spec.version``, in its record and key) and its ``run`` draws as that version did."""
    USES_CORPUS: ClassVar[bool] = True
    NOISE_FREE: ClassVar[tuple[str, ...]] = ()
    """The keys of :meth:`numbers` that do not depend on the seed (a replay of a secret record reproduces these)."""
    NOTEBOOK_FIGURE: ClassVar[str] = ""
    NOTEBOOK_IMPORTS: ClassVar[str] = ""
    SALTS: ClassVar[dict[str, Salt]] = {}
    """The spec's salt streams by name (:mod:`dpcore.specs.knobs`): :meth:`salt_of` derives each from the fields'
    ``knob(..., salts=True)`` declarations."""

    seed: int = 0
    corpus: str | None = None
    corpus_hash: str | None = None

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        kind = cls.__dict__.get("KIND")
        if kind:
            if kind in _REGISTRY and _REGISTRY[kind].__qualname__ != cls.__qualname__:
                raise ValueError(
                    f"spec kind {kind!r} is registered twice ({_REGISTRY[kind].__qualname__}, {cls.__qualname__})"
                )
            _REGISTRY[kind] = cls

    def __post_init__(self):
        values = {"seed": check_int("seed", self.seed, low=0)}
        if self.USES_CORPUS:
            if self.corpus is not None:
                values["corpus"] = check_choice("corpus", self.corpus, CORPUS_IDS)
            if self.corpus_hash is not None and not isinstance(self.corpus_hash, str):
                raise TypeError(
                    f"corpus_hash must be a string (Corpus.content_hash), got corpus_hash={self.corpus_hash!r}"
                )
        elif self.corpus is not None or self.corpus_hash is not None:
            raise UserError(
                f"{type(self).__name__} uses no corpus, got corpus={self.corpus!r}, corpus_hash={self.corpus_hash!r}"
            )
        values.update(self._validated())
        for name, value in values.items():
            object.__setattr__(self, name, value)

    def _validated(self) -> dict[str, Any]:
        """``{field: value}`` checked with dpcore.validation (subclasses override)."""
        return {}

    # -------------------------------------------------------------- the one seed derivation
    def rng(self, *salt) -> np.random.Generator:
        """:func:`derive_rng` at this spec's seed."""
        return derive_rng(self.seed, *salt)

    def salt_of(self, stream: str, *parts, **override) -> tuple:
        """Salt stream ``stream`` of :attr:`SALTS`: its tag, ``parts`` (e.g. a baseline's name), then the values of the
        fields it holds (:func:`dpcore.specs.knobs.stream_fields`; ``override``: a value in place of a field's, e.g.
        the side-by-side panel's other mode)."""
        salt = self.SALTS[stream]
        names = stream_fields(type(self), salt)
        unknown = set(override) - set(names)
        if unknown:
            raise UserError(f"override must name fields of salt {stream!r} ({', '.join(names)}), got {sorted(unknown)}")
        return (*salt.tag, *parts, *(override[n] if n in override else getattr(self, n) for n in names))

    def noise_salts(self) -> dict[str, tuple]:
        """Every noise salt a run of this spec draws from, by stream (what the generic knob test moves fields
        against); specs whose salts take run-time parts (a Δ_s, a grid) override this."""
        return {name: self.salt_of(name) for name, salt in self.SALTS.items() if salt.noise}

    # -------------------------------------------------------------- run and numbers
    def run(self, corpus=None):
        """The release (and its evaluation) this spec describes, on ``corpus`` (the one ``corpus_hash`` names)."""
        raise NotImplementedError(f"{type(self).__name__}.run")

    def numbers(self, result) -> dict:
        """The key numbers a page shows for ``result`` (JSON-able): what replay tests and notebooks compare."""
        raise NotImplementedError(f"{type(self).__name__}.numbers")

    def noise_free(self, numbers: dict) -> dict:
        """The part of ``numbers`` (from :meth:`numbers`) that does not depend on the seed (``NOISE_FREE``)."""
        return {k: numbers[k] for k in self.NOISE_FREE if k in numbers}

    # -------------------------------------------------------------- record and replay
    def record(self) -> dict:
        """``{"spec": kind, "version": n, <every field>}``: JSON-able, enough to rebuild this spec."""
        if not self.KIND:
            raise TypeError(f"{type(self).__name__} has no KIND: only registered specs have a record")
        out = {"spec": self.KIND, "version": self.version}
        out.update({f.name: jsonable(getattr(self, f.name)) for f in dataclasses.fields(self)})
        return out

    def key(self, *, without: tuple[str, ...] = ()) -> str:
        """A SHA-256 of the record: equal specs give equal keys (a cache key). ``without``: fields a part of the
        computation does not depend on (e.g. a plan that every η shares), so that part's cache ignores them."""
        rec = {k: v for k, v in self.record().items() if k not in without}
        return hashlib.sha256(json.dumps(rec, sort_keys=True).encode()).hexdigest()

    @property
    def version(self) -> int:
        """The record version this spec draws as: ``VERSION``, or an older one of ``REPLAYS`` (from a record)."""
        return self.__dict__.get("_version", self.VERSION)

    def replace(self, **changes) -> Self:
        """A copy with some fields changed (validated again; the same version)."""
        out = dataclasses.replace(self, **changes)
        if self.version != self.VERSION:
            object.__setattr__(out, "_version", self.version)
        return out

    @classmethod
    def from_record(cls, record: dict) -> "Spec":
        """The spec a :meth:`record` describes. On ``Spec`` itself it dispatches on ``record["spec"]``."""
        if not isinstance(record, dict):
            raise TypeError(f"record must be a dict (spec.record()), got record={type(record).__name__}")
        kind: Any = record.get("spec")  # any JSON value: one that names no spec is rejected below
        target = _REGISTRY.get(kind) if cls is Spec else cls
        if target is None:
            raise UserError(f"record['spec'] must be one of {sorted(_REGISTRY)}, got spec={kind!r}")
        if kind != target.KIND:
            raise UserError(f"record['spec'] must be {target.KIND!r} for {target.__name__}, got spec={kind!r}")
        version = record.get("version")
        versions = (target.VERSION, *target.REPLAYS)
        if version not in versions or isinstance(version, bool):
            want = target.VERSION if len(versions) == 1 else f"one of {sorted(versions)}"
            raise UserError(f"record['version'] must be {want} for spec {kind!r}, got version={version!r}")
        names = {f.name for f in dataclasses.fields(target)}
        unknown = sorted(set(record) - names - {"spec", "version", "noise"})
        if unknown:
            raise UserError(f"record has fields that spec {kind!r} does not know: {unknown}")
        if "noise" in record:
            record = _with_fresh_seed(record, target)
        spec = target(**{k: _from_json(v) for k, v in record.items() if k in names})
        if version != target.VERSION:
            object.__setattr__(spec, "_version", version)  # an old record: run draws as that version did
        return spec


def _with_fresh_seed(record: dict, target: type[Spec]) -> dict:
    """A secret record (:func:`secret_record`) with a seed from the operating system's entropy, after warning."""
    if record["noise"] != SECRET_NOISE:
        raise UserError(f"record['noise'] must be {SECRET_NOISE!r} when present, got noise={record['noise']!r}")
    if "seed" in record:
        raise UserError("a record whose noise is secret must carry no seed, got a record with both")
    kept = ", ".join(target.NOISE_FREE) or "none"
    warnings.warn(
        SecretNoiseWarning(
            f"this {target.KIND} record's noise is secret (made in the app's private noise mode; its seed was never "
            f"shown or exported): the rebuilt spec draws fresh noise from the operating system's entropy. Only its "
            f"noise-free numbers reproduce the export ({kept}); the noisy ones cannot be reproduced."
        ),
        stacklevel=3,
    )
    return {**record, "seed": secrets.randbits(128)}


def spec_kinds() -> dict[str, type]:
    """The registered spec kinds (name → class)."""
    return dict(_REGISTRY)


def replay(record: dict, corpus=None):
    """Rebuild the spec a record describes and run it on ``corpus``: ``Spec.from_record(record).run(corpus)``.

    Raises ValueError when the spec names a corpus hash and ``corpus`` is another corpus (or missing).
    """
    spec = Spec.from_record(record)
    if spec.USES_CORPUS and spec.corpus_hash is not None:
        got = getattr(corpus, "content_hash", None)
        if got != spec.corpus_hash:
            raise UserError(
                f"corpus must be the corpus the record was made on (content hash "
                f"{spec.corpus_hash[:12]}…), got corpus with content hash "
                f"{'none' if got is None else got[:12] + '…'}"
            )
    return spec.run(corpus)


def public_corpus_of(spec, public=None):
    """The public corpus of a spec with ``corpus`` and ``public_hash`` fields: ``public`` when given, else the one
    ``spec.corpus`` names (``load_corpus(corpus, which="public")``); ValueError when its content hash is not
    ``spec.public_hash``."""
    if public is None:
        if spec.corpus is None:
            raise UserError("public must be given when the spec names no corpus id, got corpus=None")
        public = load_corpus(spec.corpus, which="public")
    if spec.public_hash is not None and public.content_hash != spec.public_hash:
        raise UserError(
            f"public must be the public corpus the spec was made on (content hash "
            f"{spec.public_hash[:12]}…), got content hash {public.content_hash[:12]}…"
        )
    return public


def load_corpus(
    corpus_id: str, *, which: str = "private", path=None, user_column: str | None = None, text_column: str | None = None
):
    """The corpus a spec's ``corpus`` id names: ``"classroom"`` / ``"paper"`` (the synthetic samples, ``which`` =
    "private" or "public"), ``"chat"`` (the real chat's private or public part), or ``"upload"`` (the file at
    ``path`` with its user and text columns, as the app's upload panel reads it)."""
    check_choice("corpus_id", corpus_id, CORPUS_IDS)
    check_choice("which", which, ("private", "public"))
    if corpus_id in ("classroom", "paper"):
        from ..text.samples import load_sample_corpus

        return load_sample_corpus(which, size=corpus_id)
    if corpus_id == "chat" or which == "public":  # an upload's public data is the real chat's public part
        from ..text.real_corpus import load_real_corpus

        return load_real_corpus("chat", which=which)
    if path is None or user_column is None or text_column is None:
        raise UserError(
            "corpus_id='upload' needs path, user_column and text_column (the file and the columns the "
            f"app read), got path={path!r}, user_column={user_column!r}, text_column={text_column!r}"
        )
    from pathlib import Path

    from ..text.uploads import load_uploaded_corpus

    p = Path(path)
    return load_uploaded_corpus(p.read_bytes(), p.name, user_column=user_column, text_column=text_column)
