"""The referee's dashboard (Streamlit), started by ``cardref ui``.

``app.py`` is the Streamlit script; its pages live in ``screens/`` and call the render
functions of ``page_live``, ``page_replay``, ``page_setup`` and ``page_tournament``.
Below them, modules without Streamlit that tests use directly:

* ``model``: the table's append-only event log, judged (incrementally) on demand;
* ``views``: what the screens show, read defensively from the engines' state and summaries;
* ``live``: the frame loop in a background thread (``FrameSource`` → ``Pipeline`` → log);
* ``sources``: camera/video sources and the bridge to ``cardref.vision.session``;
* ``cards_img``, ``table_img``, ``overlay``, ``clickpick``: pictures;
* ``i18n``: Chinese (default) and English, the games' own terms in Chinese in both;
* ``bench``: ``cardref bench ui``; ``browser``: the real-browser harness;
* ``demo/``: the bundled recording and ``python -m cardref.ui.demo.make``.
"""
