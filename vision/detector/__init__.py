"""The card detector: a YOLO model behind interchangeable backends (see ``load_detector``)."""
