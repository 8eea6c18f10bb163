"""Offline batch generation with a hybrid model."""
from vllm import LLM, SamplingParams

llm = LLM(
    model="nvidia/NVIDIA-Nemotron-Nano-9B-v2",
    max_model_len=32768,
    mamba_cache_mode="all",
    enable_prefix_caching=True,
)
print(llm.generate(["Hello"], SamplingParams(max_tokens=16)))
