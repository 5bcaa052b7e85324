"""Training and net assessment: the trainer (train, datafile, export), a net's offline quality and
lint (netquality, netlint), and the fail-high predictor's fit and calibration (fhfit,
calibration). They build on stkref, the reference the C++ must equal; stkref never imports them."""
