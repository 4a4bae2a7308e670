"""Tool dialects found by shape in documents (:mod:`.json_tools`) and in Python objects (:mod:`.json_objects`)."""
