"""The bundled demo recording (``table.jsonl``, ``video.mp4``, ``calibration.json``) and
the script that makes it (:mod:`cardref.ui.demo.make`)."""
