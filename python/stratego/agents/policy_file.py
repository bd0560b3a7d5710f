"""The saved-policy format: one file with a network's weights and everything needed to
play it (docs/agents.md, "Saved policies"). Needs torch (the train extra).

A policy file is `torch.save` of a dict of plain data and tensors only, so that it loads
with `torch.load(weights_only=True)`: no pickled Python object, no code runs from it.

    format          "stratego-policy"
    format_version  1
    network         {"factory": "module:Class", "kwargs": {...}}   plain values only
    observation     {"history_k", "belief", "obs_dtype", "version", "deploy", "channels"}
    variant         {"name", "description", "piece_counts", "settings", "num_actions"}
    state_dict      {name: tensor}                                 the weights
    metadata        {...}  plain values: stratego and torch versions, whatever the
                    trainer adds (step, wall time, scores)

Loading a file runs no code it names. Its factory must be one of the package's own
networks (NETWORKS) or one that an installed package registers in the entry point group
"stratego.policies" (`mynet = "mypkg.nets:MyNet"`; the registry is read without
importing anything, and only the entry that matches is loaded); any other module path
is refused, unimported, unless the caller passes trust=True (`--trust`). The factory
must be a `torch.nn.Module` class, so a file cannot name a function to call.

What a file can make the loader allocate is bounded before it is allocated: the file
(at most `max_bytes`) must be torch.save's zip archive with every member stored as
torch.save stores it, uncompressed (nothing inflates), and the network is first built
on torch's "meta" device (no memory), its weights compared with the file's by name and
shape and its size with `max_bytes`, before it is built for real.
"""
from __future__ import annotations

import importlib
import importlib.metadata
import keyword
import os
import zipfile
from pathlib import Path
from typing import Any

import torch

from ..observation import OBSERVATION_VERSION
from .policy import ObservationSettings
from ..common.atomic_write import atomic_write
from .torch_policy import TorchPolicy
from ..variants import RULE_SETTINGS, Variant, load_variant

#: The package's own networks: a file may name these without trust.
NETWORKS = ("stratego.agents.nets:ConvPolicyNet", "stratego.agents.slim_net:SlimPolicyNet")
#: Where the package's networks lived before the modules were grouped (docs/api.md,
#: "Where modules moved"): a file saved then names the old path and loads as the new one.
RENAMED_NETWORKS = {"stratego.nets:ConvPolicyNet": "stratego.agents.nets:ConvPolicyNet"}
#: The entry point group where installed packages register their networks.
ENTRY_POINT_GROUP = "stratego.policies"
#: The most bytes a policy file, its weights or its network may take (load_policy's max_bytes).
MAX_POLICY_BYTES = 2 << 30
#: The most members a policy file's archive may hold (torch.save writes one per tensor storage, plus 6).
MAX_ARCHIVE_MEMBERS = 100_000
FORMAT = "stratego-policy"
FORMAT_VERSION = 1
KEYS = ("format", "format_version", "network", "observation", "variant", "state_dict", "metadata")


class PolicyFileError(ValueError):
    """A file that is not a policy this build can play: wrong format or version, an
    unknown network factory, weights that do not fit, another variant."""


class UntrustedFactoryError(PolicyFileError):
    """A file names a network that is neither the package's nor registered: loading it
    would import the module it names, which only trust=True (`--trust`) allows."""


class SavedPolicy(TorchPolicy):
    """A loaded policy file: a TorchPolicy, plus where it came from."""

    path: Path
    variant: Variant
    factory: str
    kwargs: dict
    metadata: dict


def _check_plain(value: Any, where: str) -> None:
    """Only what `torch.load(weights_only=True)` reads back and JSON can show."""
    # Exact types: a subclass (torch's TorchVersion is a str) would be pickled as its class.
    if value is None or type(value) in (bool, int, float, str):
        return
    if type(value) in (list, tuple):
        for i, item in enumerate(value):
            _check_plain(item, f"{where}[{i}]")
        return
    if type(value) is dict:
        for key, item in value.items():
            if type(key) is not str:
                raise TypeError(f"{where} keys must be str, got {type(key).__name__}")
            _check_plain(item, f"{where}[{key!r}]")
        return
    raise TypeError(f"{where} must hold plain values (None, bool, int, float, str, lists, dicts), "
                    f"got {type(value).__name__}")


def registered_networks() -> dict[str, str]:
    """The factories a file may name without trust: "module:Class" -> who provides it
    ("stratego", or the distribution that registers it in ENTRY_POINT_GROUP). Reads the
    installed packages' metadata only: nothing is imported."""
    found = {factory: "stratego" for factory in NETWORKS}
    for entry in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        dist = getattr(entry, "dist", None)
        found.setdefault(f"{entry.module}:{entry.attr}", getattr(dist, "name", None) or entry.name)
    return found


def _is_dotted_name(text: str) -> bool:
    return all(part.isidentifier() and not keyword.iskeyword(part) for part in text.split("."))


def _resolve_factory(factory: str, trust: bool) -> type:
    """The nn.Module class that `factory` ("module:Class") names; PolicyFileError if none.
    Imports nothing unless the factory is the package's, registered, or trusted."""
    if (not isinstance(factory, str) or factory.count(":") != 1
            or not all(_is_dotted_name(part) for part in factory.split(":"))):
        raise PolicyFileError(f"network factory must be 'module:Class' (dotted Python names), got {factory!r:.80}")
    factory = RENAMED_NETWORKS.get(factory, factory)
    module_name, qualname = factory.split(":")
    if factory in NETWORKS:
        obj = importlib.import_module(module_name)
    else:
        entry = next((e for e in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)
                      if f"{e.module}:{e.attr}" == factory), None)
        if entry is None and not trust:
            raise UntrustedFactoryError(
                f"network factory {factory!r} is neither one of stratego's networks ({', '.join(NETWORKS)}) nor "
                f"registered by an installed package (entry point group {ENTRY_POINT_GROUP!r}); loading it would "
                f"import module {module_name!r} and run its code. Load the file with trust=True (--trust for stratego "
                "arena and stratego serve) only if you trust where it came from")
        try:
            if entry is not None:
                return _module_class(entry.load(), factory)
            obj = importlib.import_module(module_name)
        except ImportError as exc:
            raise PolicyFileError(f"network factory {factory!r}: cannot import module {module_name!r} ({exc}); "
                                  "install the package that defines the network") from None
        except Exception as exc:  # the module's own code failed as it ran: show it, whatever its type
            raise PolicyFileError(f"network factory {factory!r}: importing module {module_name!r} failed "
                                  f"({type(exc).__name__}: {exc})") from None
    for part in qualname.split("."):
        if not hasattr(obj, part):
            raise PolicyFileError(f"network factory {factory!r}: module {module_name!r} has no {qualname!r}")
        obj = getattr(obj, part)
    return _module_class(obj, factory)


def _module_class(obj: Any, factory: str) -> type:
    if not (isinstance(obj, type) and issubclass(obj, torch.nn.Module)):
        raise PolicyFileError(f"network factory {factory!r} is not a torch.nn.Module class; "
                              "a policy file may only name a network class to build")
    return obj


def _tensor_bytes(tensors) -> int:
    return sum(t.numel() * t.element_size() for t in tensors)


def _build(factory: str, kwargs: dict, state_dict: dict, *, trust: bool = False,
           max_bytes: int = MAX_POLICY_BYTES) -> torch.nn.Module:
    """The network the file describes, with its weights. Built first on the meta device
    (no memory): its weights must match the file's by name and shape, and its size
    max_bytes, before it is built for real."""
    cls = _resolve_factory(factory, trust)
    try:
        with torch.device("meta"):
            shape_only = cls(**kwargs)
    except Exception as exc:  # the network's own checks: show them, whatever their type
        raise PolicyFileError(f"network {factory}(**{kwargs}) cannot be built (on torch's meta device, where its "
                              f"size is checked before any memory is taken): {type(exc).__name__}: {exc}") from None
    size = _tensor_bytes(shape_only.parameters()) + _tensor_bytes(shape_only.buffers())
    if size > max_bytes:
        raise PolicyFileError(f"network {factory}(**{kwargs}) would take {size:,} bytes; the limit is "
                              f"{max_bytes:,} (max_bytes)")
    wanted = {name: tuple(t.shape) for name, t in shape_only.state_dict().items()}
    del shape_only
    given = {name: tuple(t.shape) for name, t in state_dict.items()}
    if wanted != given:
        missing = sorted(set(wanted) - set(given))[:5]
        unexpected = sorted(set(given) - set(wanted))[:5]
        shapes = [f"{k}: {given[k]} in the file, {wanted[k]} in the network"
                  for k in sorted(set(wanted) & set(given)) if wanted[k] != given[k]][:5]
        raise PolicyFileError(f"the weights do not fit network {factory}(**{kwargs}): "
                              + "; ".join(part for part in (f"missing {missing}" if missing else "",
                                                            f"unexpected {unexpected}" if unexpected else "",
                                                            ", ".join(shapes)) if part))
    try:
        net = cls(**kwargs)
    except Exception as exc:
        raise PolicyFileError(f"network {factory}(**{kwargs}) cannot be built: {type(exc).__name__}: {exc}") from None
    try:
        net.load_state_dict(state_dict, strict=True)
    except RuntimeError as exc:
        raise PolicyFileError(f"the weights do not fit network {factory}(**{kwargs}): {exc}") from None
    return net


def _check_outputs(net: torch.nn.Module, observation: ObservationSettings, num_actions: int) -> None:
    """One forward pass on an empty board: the logits must cover the variant's actions."""
    dtype = torch.uint8 if observation.obs_dtype == "uint8" else torch.float32
    obs = torch.zeros((1, len(observation.channels), 10, 10), dtype=dtype,
                      device=next(net.parameters(), torch.empty(0)).device)
    try:
        with torch.inference_mode():
            out = net(obs)
    except Exception as exc:  # the network's own code: show what failed, whatever its type
        raise PolicyFileError(f"the network fails on one empty observation: {type(exc).__name__}: {exc}") from None
    logits = out[0] if isinstance(out, (tuple, list)) else out
    if not isinstance(logits, torch.Tensor) or tuple(logits.shape) != (1, num_actions):
        shape = tuple(logits.shape) if isinstance(logits, torch.Tensor) else type(logits).__name__
        raise PolicyFileError(f"the network gives logits of shape {shape} for one observation; the variant "
                              f"needs (1, {num_actions})")


def _variant_record(variant: Variant) -> dict:
    return {"name": variant.name, "description": variant.description, "piece_counts": list(variant.piece_counts),
            "settings": dict(variant.settings), "num_actions": variant.num_actions}


def save_policy(path: str | os.PathLike, net: torch.nn.Module, variant: str | Variant = "classic", *,
                observation: ObservationSettings | None = None, factory: str | None = None,
                kwargs: dict | None = None, metadata: dict | None = None) -> Path:
    """Writes `net` as a policy file and returns its path.

    factory defaults to the network's class ("module:Class"), kwargs to its
    `init_kwargs`, observation to its `observation_settings` (stratego.agents.nets networks
    have both). Before writing, the network is rebuilt from factory and kwargs and the
    weights loaded into it, so a file that is written also loads. The write is atomic:
    a reader never sees half a file.
    """
    if not isinstance(net, torch.nn.Module):
        raise TypeError(f"net must be a torch.nn.Module, got {type(net).__name__}")
    # torch.compile wraps the network (its weights under "_orig_mod."): save the network.
    net = getattr(net, "_orig_mod", net)
    variant = load_variant(variant)
    observation = observation if observation is not None else getattr(net, "observation_settings", None)
    if not isinstance(observation, ObservationSettings):
        raise TypeError("observation must be a stratego.agents.policy.ObservationSettings (the network has no "
                        "observation_settings of its own)")
    if factory is None:
        cls = type(net)
        if cls.__module__ == "__main__" or "<locals>" in cls.__qualname__:
            raise ValueError(f"network class {cls.__qualname__} is defined in a script or a function, where a "
                             "loader cannot import it: define it in an importable module, or pass factory=")
        factory = f"{cls.__module__}:{cls.__qualname__}"
    if kwargs is None:
        kwargs = getattr(net, "init_kwargs", None)
        if not isinstance(kwargs, dict):
            raise TypeError(f"pass kwargs= (the arguments that build {factory}); the network has no init_kwargs")
    _check_plain(kwargs, "kwargs")
    metadata = dict(metadata or {})
    _check_plain(metadata, "metadata")
    from .. import __version__
    metadata.setdefault("stratego_version", __version__)
    metadata.setdefault("torch_version", str(torch.__version__))
    # clone(): a view would save its whole underlying storage.
    state_dict = {k: v.detach().to("cpu", copy=True) for k, v in net.state_dict().items()}
    try:
        # The saver's own class: importing it is no risk, so trust it here; a loader must
        # still trust it, or it must be registered (module docstring).
        rebuilt = _build(factory, dict(kwargs), state_dict, trust=True)
        _check_outputs(rebuilt, observation, variant.num_actions)
    except PolicyFileError as exc:
        raise ValueError(f"this network would not load back: {exc}") from None
    record = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "network": {"factory": factory, "kwargs": dict(kwargs)},
        "observation": {**observation.to_dict(), "channels": list(observation.channels)},
        "variant": _variant_record(variant),
        "state_dict": state_dict,
        "metadata": metadata,
    }
    with atomic_write(path, "wb", what="policy file") as out:
        torch.save(record, out)
    return Path(path)


def _expect(record: dict, key: str, kind: type | tuple, path: Path) -> Any:
    value = record.get(key)
    if not isinstance(value, kind):
        raise PolicyFileError(f"{path}: {key!r} must be a {getattr(kind, '__name__', kind)}, "
                              f"got {type(value).__name__}")
    return value


def _check_archive(path: Path, max_bytes: int) -> None:
    """The file is torch.save's zip archive of stored members, all within the file and
    max_bytes: what torch.load then allocates is bounded by the file's size."""
    size = path.stat().st_size
    if size > max_bytes:
        raise PolicyFileError(f"{path}: {size:,} bytes; a policy file may take at most {max_bytes:,} (max_bytes)")
    try:
        with zipfile.ZipFile(path) as archive:
            members = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError) as exc:
        raise PolicyFileError(f"{path}: not a stratego policy file: not the zip archive torch.save writes "
                              f"({exc})") from None
    if len(members) > MAX_ARCHIVE_MEMBERS:
        raise PolicyFileError(f"{path}: {len(members):,} archive members; a policy file holds at most "
                              f"{MAX_ARCHIVE_MEMBERS:,}")
    total = 0
    for member in members:
        # torch.save stores every member as it is: a compressed one would be inflated by
        # the reader to the size it declares, which the file's own size does not bound.
        if member.compress_type != zipfile.ZIP_STORED or member.file_size != member.compress_size:
            raise PolicyFileError(f"{path}: archive member {member.filename!r:.80} is compressed (it would inflate "
                                  f"from {member.compress_size:,} to {member.file_size:,} bytes); torch.save "
                                  "stores members uncompressed, and a policy file must too")
        if member.header_offset + member.compress_size > size:
            raise PolicyFileError(f"{path}: archive member {member.filename!r:.80} claims {member.file_size:,} "
                                  f"bytes past the end of the file ({size:,} bytes): the file is cut short or "
                                  "forged")
        total += member.file_size
    if total > max_bytes:
        raise PolicyFileError(f"{path}: its members hold {total:,} bytes; the limit is {max_bytes:,} (max_bytes)")


def read_policy_file(path: str | os.PathLike, *, max_bytes: int = MAX_POLICY_BYTES) -> dict:
    """The checked record of a policy file (weights on the CPU), without building the
    network: for tools that show what a file holds. Imports nothing the file names;
    a file over max_bytes is refused unread (module docstring)."""
    path = Path(path)
    if isinstance(max_bytes, bool) or not isinstance(max_bytes, int) or max_bytes < 1:
        raise ValueError(f"max_bytes must be a positive int, got {max_bytes!r}")
    if not path.is_file():
        raise FileNotFoundError(f"policy file {str(path)!r} does not exist")
    _check_archive(path, max_bytes)
    try:
        record = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as exc:  # torch raises several types for a file it cannot read
        # torch's message is long: keep its line that names the cause.
        lines = [line.strip() for line in str(exc).splitlines() if line.strip()] or [type(exc).__name__]
        first = next((line for line in lines if "error:" in line.lower()), lines[0])
        raise PolicyFileError(f"{path}: not a stratego policy file: torch.load(weights_only=True) refused it "
                              f"({first})") from None
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        found = record.get("format") if isinstance(record, dict) else type(record).__name__
        raise PolicyFileError(f"{path}: not a stratego policy file (format {found!r}, expected {FORMAT!r}); "
                              "write one with stratego.agents.policy_file.save_policy")
    version = record.get("format_version")
    if isinstance(version, bool) or not isinstance(version, int) or not 1 <= version <= FORMAT_VERSION:
        raise PolicyFileError(f"{path}: policy format version {version!r}; this build reads versions 1 to "
                              f"{FORMAT_VERSION} (a newer stratego wrote it?)")
    missing = [k for k in KEYS if k not in record]
    if missing:
        raise PolicyFileError(f"{path}: policy file lacks {missing}")
    network = _expect(record, "network", dict, path)
    if not isinstance(network.get("factory"), str) or not isinstance(network.get("kwargs"), dict):
        raise PolicyFileError(f"{path}: 'network' must hold a 'factory' str and a 'kwargs' dict")
    try:
        _check_plain(network["kwargs"], "'network' kwargs")
    except TypeError as exc:
        raise PolicyFileError(f"{path}: {exc}") from None
    state = _expect(record, "state_dict", dict, path)
    for name, tensor in state.items():
        if not isinstance(name, str) or not isinstance(tensor, torch.Tensor):
            raise PolicyFileError(f"{path}: 'state_dict' must map names (str) to tensors, got "
                                  f"{type(name).__name__} -> {type(tensor).__name__}")
    _expect(record, "metadata", dict, path)
    return record


def _observation_from(record: dict, path: Path) -> ObservationSettings:
    obs = record["observation"]
    if not isinstance(obs, dict):
        raise PolicyFileError(f"{path}: 'observation' must be a dict")
    try:
        settings = ObservationSettings(obs.get("history_k"), obs.get("belief"), obs.get("obs_dtype"),
                                       obs.get("version"), obs.get("deploy", False))
    except (TypeError, ValueError) as exc:
        raise PolicyFileError(f"{path}: observation settings: {exc}") from None
    if settings.version != OBSERVATION_VERSION:
        raise PolicyFileError(f"{path}: the policy was trained on observation layout version {settings.version}; "
                              f"this build writes version {OBSERVATION_VERSION}")
    channels = obs.get("channels")
    if not isinstance(channels, list):
        raise PolicyFileError(f"{path}: observation 'channels' must be a list of channel names, got "
                              f"{type(channels).__name__}")
    if channels != list(settings.channels):
        raise PolicyFileError(f"{path}: the policy's observation channels differ from this build's for "
                              f"{settings} (same version, another layout)")
    return settings


def _variant_from(record: dict, path: Path) -> Variant:
    rec = record["variant"]
    if not isinstance(rec, dict):
        raise PolicyFileError(f"{path}: 'variant' must be a dict")
    settings = rec.get("settings")
    counts = rec.get("piece_counts")
    if not isinstance(settings, dict) or set(settings) != set(RULE_SETTINGS):
        raise PolicyFileError(f"{path}: variant settings must name exactly {sorted(RULE_SETTINGS)}")
    if not isinstance(counts, list) or not all(isinstance(c, int) for c in counts):
        raise PolicyFileError(f"{path}: variant piece_counts must be a list of ints")
    try:
        base = Variant(str(rec.get("name")), str(rec.get("description", "")), tuple(counts), settings)
        variant = load_variant(base, **settings)
        num_actions = variant.num_actions
    except (TypeError, ValueError) as exc:
        raise PolicyFileError(f"{path}: variant: {exc}") from None
    said = rec.get("num_actions")
    if type(said) is not int:
        raise PolicyFileError(f"{path}: variant num_actions must be an int, got {said!r:.40} "
                              f"({type(said).__name__}); its variant has {num_actions} in this build")
    if said != num_actions:
        raise PolicyFileError(f"{path}: the file says {said} actions, but its variant has "
                              f"{num_actions} in this build")
    return variant


def variant_differences(saved: Variant, wanted: Variant, rules: bool = True) -> list[str]:
    """What differs between a policy's variant and the one it is asked to play."""
    out = []
    if saved.piece_counts != wanted.piece_counts:
        out.append(f"piece counts {list(saved.piece_counts)} != {list(wanted.piece_counts)}")
    if saved.num_actions != wanted.num_actions:
        out.append(f"num_actions {saved.num_actions} != {wanted.num_actions}")
    if rules:
        for key in sorted(RULE_SETTINGS):
            a, b = saved.settings.get(key), wanted.settings.get(key)
            if a != b:
                out.append(f"{key} {a} != {b}")
    return out


def load_policy(path: str | os.PathLike, *, variant: str | Variant | None = None, check_rules: bool = True,
                device: str | None = "cpu", sample: bool = False, temperature: float = 1.0,
                seed: int | None = None, batch_size: int = 4096, trust: bool = False,
                max_bytes: int = MAX_POLICY_BYTES) -> SavedPolicy:
    """A policy file as a policy (greedy, or sampling with `sample=True`, repeatable
    from `seed`).

    With `variant`, the file must have been saved for it: the same pieces and actions,
    and (unless check_rules=False) the same rule settings, which the observations
    depend on (progress planes) and the play too. Raises FileNotFoundError for a
    missing file and PolicyFileError (a ValueError) for one that does not load.

    The file runs no code: its network must be stratego's or registered, unless
    `trust=True` lets it import the module it names; the file, its weights and its
    network each take at most `max_bytes` (module docstring).
    """
    path = Path(path)
    if not isinstance(trust, bool):
        raise TypeError(f"trust must be a bool, got {type(trust).__name__}")
    record = read_policy_file(path, max_bytes=max_bytes)
    observation = _observation_from(record, path)
    saved_variant = _variant_from(record, path)
    if variant is not None:
        wanted = load_variant(variant)
        diffs = variant_differences(saved_variant, wanted, rules=check_rules)
        if diffs:
            raise PolicyFileError(f"{path}: saved for variant {saved_variant.name!r}, asked to play "
                                  f"{wanted.name!r}: {'; '.join(diffs)}")
    network = record["network"]
    try:
        net = _build(network["factory"], dict(network["kwargs"]), record["state_dict"], trust=trust,
                     max_bytes=max_bytes)
        _check_outputs(net, observation, saved_variant.num_actions)
    except PolicyFileError as exc:
        raise type(exc)(f"{path}: {exc}") from None
    net.eval()
    if device is not None:
        net.to(device)
    policy = SavedPolicy(net, observation, sample=sample, temperature=temperature, seed=seed, device=device,
                         batch_size=batch_size)
    policy.path, policy.variant = path, saved_variant
    policy.factory, policy.kwargs, policy.metadata = network["factory"], dict(network["kwargs"]), record["metadata"]
    return policy
