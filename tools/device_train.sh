#!/usr/bin/env bash
# The detector's training on a lent GPU machine, in one device call (docs/vision-detector.md,
# "Training on a lent GPU machine").  Here first: `cardref device-kit pack` (writes .devkit/).
# Then, with the device tool: run(command='bash tools/device_train.sh', carry=['.devkit']).
#
# There it installs the carried wheels and this checkout, unpacks the kit's faces and
# backgrounds into the caches, renders SCENES training scenes (and VAL of the held-out
# designs) on every core, trains the corner finder (from INIT) and the corner namer side by
# side on the GPU for FINDER_MIN and NAMER_MIN minutes, and leaves in $OUT: finder-best.pt,
# finder-last.pt, namer-last.pt, corner-namer.onnx, results.csv and train.log.
# Every knob is an environment variable; PYTHON and DEVICE let it run on a CPU to try it.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:?the device tool sets OUT}
KIT=${KIT:-.devkit}
PYTHON=${PYTHON:-python3}
DEVICE=${DEVICE:-0}                  # cardref train --device; the namer gets cuda (or cpu)
SCENES=${SCENES:-10000}
VAL=${VAL:-400}
IMGSZ=${IMGSZ:-320}
BATCH=${BATCH:-128}
FINDER_MIN=${FINDER_MIN:-4.5}
NAMER_MIN=${NAMER_MIN:-4}
INIT=${INIT:-models/cards-yolo11n.pt}  # "none": from yolo11n.yaml
SITE=${SITE:-/tmp/cardref-site}
WORK=${WORK:-/tmp/cardref-train}
CORES=$(nproc)
log() { echo "[$(date +%H:%M:%S)] $*" | tee -a "$OUT/train.log"; }

mkdir -p "$OUT" "$WORK"
log "machine: $CORES cores; $("$PYTHON" -c 'import torch; print(torch.__version__, torch.cuda.is_available() and torch.cuda.get_device_name(0))')"
rm -rf "$SITE"
if compgen -G "$KIT/wheels/*.whl" >/dev/null; then
  "$PYTHON" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target "$SITE" "$KIT"/wheels/*.whl
fi
"$PYTHON" -m pip install -q --no-index --no-deps --no-build-isolation --no-compile --no-cache-dir --upgrade --target "$SITE" .
export PYTHONPATH="$SITE${PYTHONPATH:+:$PYTHONPATH}" YOLO_OFFLINE=1 PYTHONUNBUFFERED=1
# -P: not this checkout's cardref/ folder (the current directory) but the package installed
# in $SITE, whose models/, caches and runs/ this training may write
py() { "$PYTHON" -P "$@"; }
where=$(py -c 'import cardref.datasets as d; print(d.__file__)')
case "$where" in
  "$SITE"/*) ;;
  *) log "cardref is imported from $where, not $SITE (another install wins): stopping"; exit 2 ;;
esac
cardref() { py -c 'import sys; from cardref.cli import main; sys.exit(main())' "$@"; }
cardref device-kit unpack --kit "$KIT" | tee -a "$OUT/train.log"

log "rendering $SCENES training scenes and $VAL validation scenes"
cardref gen-data --out "$WORK/data" --n "$SCENES" --seed 201 --split train --workers "$CORES" --no-progress >>"$OUT/train.log"
cardref gen-data --out "$WORK/data" --n "$VAL" --seed 11 --split val --workers "$CORES" --no-progress >>"$OUT/train.log"

log "training the finder ($FINDER_MIN min) and the namer ($NAMER_MIN min) side by side"
init=(); [ "$INIT" != none ] && init=(--init "$INIT")
namer_device=cpu; [ "$DEVICE" != cpu ] && namer_device=cuda
cardref train --data "$WORK/data" --single-cls "${init[@]}" --budget-min "$FINDER_MIN" --imgsz "$IMGSZ" \
  --batch "$BATCH" --workers $((CORES * 3 / 4)) --device "$DEVICE" --name gpu --out "$WORK/finder-models" \
  >"$OUT/finder.log" 2>&1 &
finder=$!
cardref train-namer --data "$WORK/data" --no-real --init models/corner-namer.pt --budget-min "$NAMER_MIN" \
  --threads $((CORES / 4 > 0 ? CORES / 4 : 1)) --device "$namer_device" --name gpu --out "$WORK/namer-models" \
  >"$OUT/namer.log" 2>&1 &
namer=$!
status=0
wait $finder || { status=1; log "the finder's training failed (finder.log)"; }
wait $namer || { status=1; log "the namer's training failed (namer.log)"; }

copy() { [ -f "$1" ] && cp "$1" "$OUT/$2" && log "kept $2 ($(du -h "$1" | cut -f1))" || log "no $2"; }
runs=$(py -c 'import cardref.datasets.train as t; print(t.RUNS_DIR)')
namer_runs=$(py -c 'import cardref.datasets.namer_train as t; print(t.RUNS_DIR)')
copy "$runs/gpu/weights/best.pt" finder-best.pt
copy "$runs/gpu/weights/last.pt" finder-last.pt
copy "$runs/gpu/results.csv" results.csv
copy "$namer_runs/gpu/last.pt" namer-last.pt
copy "$WORK/namer-models/corner-namer.onnx" corner-namer.onnx
log "done (status $status)"
exit $status
