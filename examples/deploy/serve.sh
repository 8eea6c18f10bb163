#!/usr/bin/env bash
# Start a Granite 4.0 hybrid model on one GPU.
set -euo pipefail
MODEL=${MODEL:-ibm-granite/granite-4.0-h-small}

pip install "vllm==0.29.0"

exec vllm serve "$MODEL" \
  --config serve-config.yaml \
  --max_num_batched_tokens 8192 \
  --enable-chunked \
  --mamba-cache-mode all \
  --mamba-block-size 256 \
  --swap-space 16 \
  --port "${PORT:-8000}"
