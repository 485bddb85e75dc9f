"""Hand-written table logs shared by the recorder tests (import sample_logs: tests/helpers is on pytest's pythonpath)."""

DEAL_GOUJI = [
    '{"type":"deal","game":"gouji-shandong","seats":6,"leader":0,"hand_sizes":[36,36,36,36,36,36]}',
    '{"type":"play","seat":0,"cards":["3S","3H"],"t":1.0,"source":"camera","conf":0.93}',
    '{"type":"play","seat":1,"cards":["5D","5C"],"t":2.5}',
    'not json at all',
    '{"type":"play","seat":2,"cards":["ZZ","9S"]}',
    '{"type":"pass","seat":3}',
    '{"type":"play","seat":9,"cards":["KH"]}',
    '{"type":"correct","ref":4,"cards":["9H","9S"],"who":"referee Li","why":"camera misread 9H"}',
    '{"type":"play","seat":4,"cards":["3S","3S","3S","3S","3S"]}',
    '{"type":"correct","ref":6,"seat":5,"who":"referee Li","why":"wrong seat"}',
]

DEAL_GUAFENG = [
    '{"type":"deal","game":"guafeng-zibo","seats":4,"level":"7","trump":"H","dealer":0}',
    '{"type":"play","seat":0,"cards":["AS"]}',
    '{"type":"play","seat":1,"cards":["KS"]}',
    '[1, 2, 3]',
    '{"type":"play","seat":2,"cards":["BJ","BJ","BJ"]}',
    '{"type":"explode","seat":2}',
]
