"""Hugging Face transformers' reading of a config.json's positions, transcribed to float64 NumPy.

The reference for tests/js/model-positions.test.js: the test sends configs on stdin (a JSON list
of {"config": ..., "seq_len": int | null}) and compares modelPositions() with what this prints.
Written from HF's code, function by function, not from wasm/model.js; HF computes in float32
torch, this in float64, so the comparison is of the formulas.

Sources read (see wasm/model.js for the same list):
  modeling_rope_utils.py, newest in the code index (rope_parameters era; stored-file id
      64056737866): RotaryEmbeddingConfigMixin.convert_rope_params_to_dict and
      standardize_rope_params, _compute_linear_scaling / dynamic_ntk / yarn / longrope / llama3,
      dynamic_rope_update (longrope_frequency_update, dynamic_frequency_update)
  cyyever/transformers@89539b06 modeling_rope_utils.py: the yarn factor override of 4.4x-4.55
  models/*/configuration_*.py: qwen2/qwen3 (sliding layers), gemma3@d98ac17 (defaults, pattern),
      cohere2, gpt_oss@02b8f42, smollm3@6551e17, llama4 (no_rope_layers, layer_types)
  masking_utils.py: sliding_window_overlay (kv_idx > q_idx - sliding_window), chunked_overlay
  deepseek_v3 modular (softmax scaling) and DeepSeek-V3@9b4e978 inference/model.py L434-437
  bloom build_alibi_tensor (slopes)
"""

import json
import math
import sys

import numpy as np


class Cfg:
    """A config class instance: attributes from the JSON, then what the class's __init__ sets."""

    def __init__(self, d, **defaults):
        for k, v in defaults.items():
            setattr(self, k, v)
        for k, v in d.items():
            setattr(self, k, v)


# ---------------------------------------------------------------------------------------------
# RotaryEmbeddingConfigMixin (newest HF)

DEFAULT_THETA = 10_000.0


def convert_rope_params_to_dict(cfg, default_theta):
    rope_scaling = getattr(cfg, "rope_scaling", None)
    rope_parameters = rope_scaling or getattr(cfg, "rope_parameters", None)
    cfg.rope_parameters = dict(rope_parameters) if rope_parameters is not None else {}
    rope_theta = getattr(cfg, "rope_theta", None)
    if rope_theta is None:
        rope_theta = default_theta
    standardize_rope_params(cfg, rope_theta)


def standardize_rope_params(cfg, rope_theta):
    # The mixin's convert_rope_params_to_dict puts rope_theta (and partial_rotary_factor) into
    # the dict before standardize_rope_params looks at its keys; a dict keyed by layer type would
    # then no longer look like one, and the classes that ship such dicts (Gemma 3 in transformers
    # 5) handle them themselves. Transcribed here as intended: the per-layer-type test first, then
    # the defaults, into the single dict or into each layer type's.
    prf = getattr(cfg, "partial_rotary_factor", None)
    rp = cfg.rope_parameters
    layer_types = getattr(cfg, "layer_types", None)
    if layer_types is None or rp == {} or not set(rp.keys()).issubset(layer_types):
        if rp.get("rope_type") is None:
            rp["rope_type"] = rp.get("type") or "default"
        rp.setdefault("rope_theta", rope_theta)
        if prf is not None:
            rp["partial_rotary_factor"] = prf
        if rp["rope_type"] in ("llama3", "yarn", "longrope"):
            if getattr(cfg, "original_max_position_embeddings", None) is not None:
                rp["original_max_position_embeddings"] = cfg.original_max_position_embeddings
            elif rp.get("original_max_position_embeddings") is None:
                rp["original_max_position_embeddings"] = cfg.max_position_embeddings
        cfg.per_layer_type = False
    else:
        for lt in set(layer_types):
            sub = dict(rp[lt])
            if sub.get("rope_type") is None:
                sub["rope_type"] = sub.get("type") or "default"
            sub.setdefault("rope_theta", rope_theta)
            if prf is not None:
                sub["partial_rotary_factor"] = prf
            if sub["rope_type"] in ("llama3", "yarn", "longrope") and sub.get("original_max_position_embeddings") is None:
                sub["original_max_position_embeddings"] = cfg.max_position_embeddings
            rp[lt] = sub
        cfg.per_layer_type = True


def params_for(cfg, layer_type):
    return cfg.rope_parameters[layer_type] if cfg.per_layer_type else cfg.rope_parameters


def rope_dim(cfg, p):
    head_dim = getattr(cfg, "head_dim", None) or cfg.hidden_size // cfg.num_attention_heads
    return int(head_dim * p.get("partial_rotary_factor", 1.0))


def arange_over(dim):
    return np.arange(0, dim, 2, dtype=np.int64).astype(np.float64) / dim


# ---------------------------------------------------------------------------------------------
# ROPE_INIT_FUNCTIONS and the default (each model's compute_default_rope_parameters)

def rope_default(cfg, p, seq_len):
    dim = rope_dim(cfg, p)
    return 1.0 / (p["rope_theta"] ** arange_over(dim)), 1.0


def rope_linear(cfg, p, seq_len):
    inv, _ = rope_default(cfg, p, seq_len)
    return inv / p["factor"], 1.0


def rope_dynamic(cfg, p, seq_len):
    dim = rope_dim(cfg, p)
    mp = cfg.max_position_embeddings
    factor = p["factor"]
    seq_len = mp if seq_len is None else max(seq_len, mp)
    base = p["rope_theta"] * ((factor * seq_len / mp) - (factor - 1)) ** (dim / (dim - 2))
    return 1.0 / (base ** arange_over(dim)), 1.0


def yarn_get_mscale(scale, mscale=1):
    if scale <= 1:
        return 1.0
    return 0.1 * mscale * math.log(scale) + 1.0


def rope_yarn(cfg, p, seq_len, truncate_from, factor_override=False):
    base = p["rope_theta"]
    dim = rope_dim(cfg, p)
    factor = p["factor"]
    attention_factor = p.get("attention_factor")
    mscale = p.get("mscale")
    mscale_all_dim = p.get("mscale_all_dim")
    original = p["original_max_position_embeddings"]
    if factor is None:
        factor = cfg.max_position_embeddings / original
    if factor_override:
        # cyyever/transformers@89539b06: `if "original_max_position_embeddings" in dict`.
        factor = cfg.max_position_embeddings / original
    if attention_factor is None:
        if mscale and mscale_all_dim:
            attention_factor = float(yarn_get_mscale(factor, mscale) / yarn_get_mscale(factor, mscale_all_dim))
        else:
            attention_factor = yarn_get_mscale(factor)
    beta_fast = p.get("beta_fast") or 32
    beta_slow = p.get("beta_slow") or 1

    def correction_dim(rot):
        return (dim * math.log(original / (rot * 2 * math.pi))) / (2 * math.log(base))

    truncate = truncate_from.get("truncate", True)
    low = correction_dim(beta_fast)
    high = correction_dim(beta_slow)
    if truncate:
        low = math.floor(low)
        high = math.ceil(high)
    low, high = max(low, 0), min(high, dim - 1)
    if low == high:
        high += 0.001
    ramp = np.clip((np.arange(dim // 2, dtype=np.float64) - low) / (high - low), 0, 1)
    pos_freqs = base ** arange_over(dim)
    extrapolation = 1.0 / pos_freqs
    interpolation = 1.0 / (factor * pos_freqs)
    extrapolation_factor = 1 - ramp
    inv = interpolation * (1 - extrapolation_factor) + extrapolation * extrapolation_factor
    return inv, attention_factor


def rope_longrope(cfg, p, seq_len):
    base = p["rope_theta"]
    dim = rope_dim(cfg, p)
    factor = p.get("factor")
    attention_factor = p.get("attention_factor")
    original = p["original_max_position_embeddings"]
    if factor is None:
        factor = cfg.max_position_embeddings / original
    if attention_factor is None:
        attention_factor = 1.0 if factor <= 1.0 else math.sqrt(1 + math.log(factor) / math.log(original))
    # longrope_frequency_update: the long factors once the sequence passes the original length.
    ext = p["long_factor"] if (seq_len and seq_len > original) else p["short_factor"]
    ext = np.asarray(ext, dtype=np.float64)
    return 1.0 / (ext * base ** arange_over(dim)), attention_factor


def rope_llama3(cfg, p, seq_len):
    inv, _ = rope_default(cfg, p, seq_len)
    factor = p["factor"]
    low_ff = p["low_freq_factor"]
    high_ff = p["high_freq_factor"]
    old = p["original_max_position_embeddings"]
    low_wl = old / low_ff
    high_wl = old / high_ff
    wavelen = 2 * math.pi / inv
    inv_llama = np.where(wavelen > low_wl, inv / factor, inv)
    with np.errstate(divide="ignore", invalid="ignore"):
        smooth = (old / wavelen - low_ff) / (high_ff - low_ff)
        smoothed = (1 - smooth) * inv_llama / factor + smooth * inv_llama
    medium = ~(wavelen < high_wl) & ~(wavelen > low_wl)
    return np.where(medium, smoothed, inv_llama), 1.0


INIT = {"default": rope_default, "linear": rope_linear, "dynamic": rope_dynamic,
        "longrope": rope_longrope, "llama3": rope_llama3}


def compute(cfg, layer_type, seq_len):
    p = params_for(cfg, layer_type)
    if p["rope_type"] == "yarn":
        inv, af = rope_yarn(cfg, p, seq_len, cfg.rope_parameters)
    else:
        inv, af = INIT[p["rope_type"]](cfg, p, seq_len)
    out = {"rope_type": p["rope_type"], "rotary_dim": rope_dim(cfg, p), "base": p["rope_theta"],
           "inv_freq": inv.tolist(), "attention_factor": af}
    if p["rope_type"] in ("yarn", "longrope", "llama3"):
        out["original"] = p["original_max_position_embeddings"]
    if p["rope_type"] == "yarn" and getattr(cfg, "_original_in_dict", {}).get(layer_type, False):
        old_factor = cfg.max_position_embeddings / p["original_max_position_embeddings"]
        stated = p["factor"]
        if stated is not None and old_factor != stated and 1 <= old_factor <= 1e6:
            inv_old, af_old = rope_yarn(cfg, p, seq_len, cfg.rope_parameters, factor_override=True)
            out["older"] = {"factor": old_factor, "inv_freq": inv_old.tolist(), "attention_factor": af_old}
    return out


# ---------------------------------------------------------------------------------------------
# Config classes: the attributes each sets, and its layer_types / NoPE rule

def every_nth(n_layers, n):
    return [int((i + 1) % n != 0) for i in range(n_layers)]


def read_config(d):
    d = dict(d)
    if isinstance(d.get("text_config"), dict):
        outer = d.get("model_type")
        d = dict(d["text_config"])
        if "model_type" not in d:
            d["model_type"] = {"gemma3": "gemma3_text", "llama4": "llama4_text"}.get(outer, outer)
    if d.get("model_type") in ("gemma3", "llama4"):
        d["model_type"] += "_text"
    mt = d.get("model_type")
    if mt is None and "n_embd" in d:
        mt = "gptj" if "rotary_dim" in d else "gpt2"
    d["model_type"] = mt
    return d


def layers_of(d):
    """(cfg, per-layer [attention type, rotates, window, temperature]) for a RoPE decoder."""
    mt = d["model_type"]
    default_theta = DEFAULT_THETA
    if mt in ("qwen2", "qwen2_moe", "qwen3", "qwen3_moe", "qwen2_vl", "qwen2_5_vl", "qwen2_vl_text", "qwen2_5_vl_text"):
        cfg = Cfg(d, use_sliding_window=False, sliding_window=None, max_window_layers=28)
        cfg.sliding_window = cfg.sliding_window if cfg.use_sliding_window else None
        if getattr(cfg, "layer_types", None) is None:
            cfg.layer_types = ["sliding_attention" if cfg.sliding_window is not None and i >= cfg.max_window_layers
                               else "full_attention" for i in range(cfg.num_hidden_layers)]
        rs = getattr(cfg, "rope_scaling", None)
        if rs and rs.get("type") == "mrope":
            rs = dict(rs)
            rs["type"] = "default"
            cfg.rope_scaling = rs
        rotates = [1] * cfg.num_hidden_layers
    elif mt == "gemma3_text":
        cfg = Cfg(d, head_dim=256, rope_theta=1_000_000.0, rope_local_base_freq=10_000.0, sliding_window=4096,
                  max_position_embeddings=131_072)
        pattern = d.get("sliding_window_pattern", d.get("_sliding_window_pattern", 6))
        if getattr(cfg, "layer_types", None) is None:
            cfg.layer_types = ["sliding_attention" if bool((i + 1) % pattern) else "full_attention"
                               for i in range(cfg.num_hidden_layers)]
        if getattr(cfg, "rope_parameters", None) is None:
            full = dict(getattr(cfg, "rope_scaling", None) or {"rope_type": "default"})
            full["rope_theta"] = cfg.rope_theta
            cfg.rope_parameters = {"full_attention": full,
                                   "sliding_attention": {"rope_type": "default", "rope_theta": cfg.rope_local_base_freq}}
            cfg.rope_scaling = None
        rotates = [1] * cfg.num_hidden_layers
        default_theta = 1_000_000.0
    elif mt == "cohere2":
        cfg = Cfg(d, sliding_window_pattern=4, sliding_window=None)
        cfg.head_dim = cfg.hidden_size // cfg.num_attention_heads
        if getattr(cfg, "layer_types", None) is None:
            cfg.layer_types = ["sliding_attention" if bool((i + 1) % cfg.sliding_window_pattern) else "full_attention"
                               for i in range(cfg.num_hidden_layers)]
        rotates = [int(t == "sliding_attention" and cfg.sliding_window is not None) for t in cfg.layer_types]
    elif mt == "gpt_oss":
        cfg = Cfg(d)
        if getattr(cfg, "layer_types", None) is None:
            cfg.layer_types = ["sliding_attention" if (i + 1) % 2 else "full_attention" for i in range(cfg.num_hidden_layers)]
        rotates = [1] * cfg.num_hidden_layers
        default_theta = 150_000.0
    elif mt == "smollm3":
        cfg = Cfg(d, max_position_embeddings=32768, use_sliding_window=False, sliding_window=None,
                  no_rope_layers=None, no_rope_layer_interval=4)
        if cfg.no_rope_layers is None:
            cfg.no_rope_layers = every_nth(cfg.num_hidden_layers, cfg.no_rope_layer_interval)
        if getattr(cfg, "layer_types", None) is None:
            cfg.layer_types = ["sliding_attention" if cfg.use_sliding_window and cfg.sliding_window is not None
                               and not cfg.no_rope_layers[i] else "full_attention" for i in range(cfg.num_hidden_layers)]
        rotates = [int(bool(cfg.no_rope_layers[i])) for i in range(cfg.num_hidden_layers)]
        default_theta = 2_000_000.0
    elif mt == "llama4_text":
        cfg = Cfg(d, no_rope_layers=None, no_rope_layer_interval=4, attention_chunk_size=8192,
                  attn_temperature_tuning=True, floor_scale=8192, attn_scale=0.1)
        if not cfg.no_rope_layers:
            cfg.no_rope_layers = every_nth(cfg.num_hidden_layers, cfg.no_rope_layer_interval)
        if getattr(cfg, "layer_types", None) is None:
            cfg.layer_types = ["chunked_attention" if r else "full_attention" for r in cfg.no_rope_layers[:cfg.num_hidden_layers]]
        rotates = [int(bool(cfg.no_rope_layers[i])) for i in range(cfg.num_hidden_layers)]
        default_theta = 500_000.0
    elif mt in ("deepseek_v3", "deepseek_v2"):
        cfg = Cfg(d)
        cfg.head_dim = cfg.qk_rope_head_dim
        cfg.layer_types = ["full_attention"] * cfg.num_hidden_layers
        rotates = [1] * cfg.num_hidden_layers
    elif mt == "gpt_neox":
        cfg = Cfg(d)
        if getattr(cfg, "rope_theta", None) is None:
            cfg.rope_theta = d.get("rotary_emb_base", 10000)
        if getattr(cfg, "partial_rotary_factor", None) is None:
            cfg.partial_rotary_factor = d.get("rotary_pct", 0.25)
        cfg.layer_types = ["full_attention"] * cfg.num_hidden_layers
        rotates = [1] * cfg.num_hidden_layers
    elif mt in ("mistral", "mixtral", "phi3"):
        # MistralConfig: sliding_window defaults to 4096, max_position_embeddings to 4096 * 32, and
        # a layer_types key only draws a warning; every layer gets the window.
        defaults = {"sliding_window": 4096, "max_position_embeddings": 4096 * 32} if mt == "mistral" else {"sliding_window": None}
        cfg = Cfg(d, **defaults)
        t = "full_attention" if cfg.sliding_window is None else "sliding_attention"
        cfg.layer_types = [t] * cfg.num_hidden_layers
        rotates = [1] * cfg.num_hidden_layers
    else:  # llama
        cfg = Cfg(d)
        if getattr(cfg, "layer_types", None) is None:
            cfg.layer_types = ["full_attention"] * cfg.num_hidden_layers
        rotates = [1] * cfg.num_hidden_layers

    # Which dicts named an original length as written (for the 4.4x-4.55 override).
    raw = getattr(cfg, "rope_scaling", None) or getattr(cfg, "rope_parameters", None) or {}
    named = {}
    for lt in set(cfg.layer_types):
        sub = raw.get(lt) if isinstance(raw.get(lt), dict) else raw
        named[lt] = isinstance(sub, dict) and sub.get("original_max_position_embeddings") is not None
    cfg._original_in_dict = named

    convert_rope_params_to_dict(cfg, default_theta)
    if not cfg.per_layer_type:
        cfg._original_in_dict = {None: isinstance(raw, dict) and raw.get("original_max_position_embeddings") is not None}

    window = getattr(cfg, "sliding_window", None)
    rows = []
    for i, t in enumerate(cfg.layer_types):
        w = None
        if t == "sliding_attention":
            w = window
        elif t == "chunked_attention":
            w = getattr(cfg, "attention_chunk_size", None)
        temperature = None
        if mt == "llama4_text" and not rotates[i] and cfg.attn_temperature_tuning:
            temperature = {"floor_scale": cfg.floor_scale, "attn_scale": cfg.attn_scale}
        rows.append((t, rotates[i], w, temperature))
    return cfg, rows


def deepseek_softmax(cfg):
    p = cfg.rope_parameters
    qk_head_dim = cfg.qk_nope_head_dim + cfg.qk_rope_head_dim
    hf = qk_head_dim ** (-0.5)
    if p.get("rope_type", "default") != "default":
        mscale_all_dim = p.get("mscale_all_dim", 0)
        if mscale_all_dim:
            m = yarn_get_mscale(p["factor"], mscale_all_dim)
            hf = hf * m * m
    original = qk_head_dim ** (-0.5)
    if cfg.max_position_embeddings > p["original_max_position_embeddings"]:
        m = 0.1 * p.get("mscale", 1.0) * math.log(p["factor"]) + 1.0
        original = original * m * m
    return {"hf": hf, "original": original}


def bloom_slopes(n):
    closest = 2 ** math.floor(math.log2(n))
    base = 2 ** (-(2 ** -(math.log2(closest) - 3)))
    slopes = [base ** k for k in range(1, 1 + closest)]
    if closest != n:
        extra = 2 ** (-(2 ** -(math.log2(2 * closest) - 3)))
        remaining = min(closest, n - closest)
        slopes += [extra ** k for k in range(1, 1 + 2 * remaining, 2)]
    return slopes


def describe(config, seq_len):
    d = read_config(config)
    mt = d["model_type"]
    if mt == "gptj":
        n_layer = d.get("n_layer", d.get("num_hidden_layers"))
        dim = d.get("rotary_dim", 64)
        inv = 1.0 / (10000 ** (np.arange(0, dim, 2, dtype=np.int64).astype(np.float64) / dim))
        rope = {"rope_type": "default", "rotary_dim": dim, "base": 10000, "inv_freq": inv.tolist(), "attention_factor": 1.0}
        return {"layers": [{"attention": "full_attention", "rotates": 1, "window": None, "rope": rope, "temperature": None}] * n_layer}
    if mt == "gpt2":
        return {"layers": [{"learned": d.get("n_positions", 1024)}] * d.get("n_layer", 12)}
    if mt == "bert":
        return {"layers": [{"learned": d.get("max_position_embeddings", 512)}] * d["num_hidden_layers"]}
    if mt == "bloom":
        heads = d.get("n_head", d.get("num_attention_heads"))
        return {"layers": [{"alibi": bloom_slopes(heads)}] * d.get("n_layer", d.get("num_hidden_layers"))}
    if mt in ("t5", "mt5"):
        enc = d["num_layers"]
        dec = d.get("num_decoder_layers") or enc
        nb = d.get("relative_attention_num_buckets", 32)
        md = d.get("relative_attention_max_distance", 128)
        layers = [{"t5": [nb, md, True, i == 0]} for i in range(enc)] + [{"t5": [nb, md, False, i == 0]} for i in range(dec)]
        return {"layers": layers}
    cfg, rows = layers_of(d)
    ropes = {}
    layers = []
    for t, rotates, w, temperature in rows:
        rope = None
        if rotates:
            key = t if cfg.per_layer_type else "all"
            if key not in ropes:
                ropes[key] = compute(cfg, t if cfg.per_layer_type else None, seq_len)
            rope = ropes[key]
        layers.append({"attention": t, "rotates": rotates, "window": w, "rope": rope, "temperature": temperature})
    out = {"layers": layers}
    if mt == "deepseek_v3":
        out["softmax"] = deepseek_softmax(cfg)
    return out


def main():
    jobs = json.load(sys.stdin)
    print(json.dumps([describe(j["config"], j.get("seq_len")) for j in jobs]))


if __name__ == "__main__":
    main()
