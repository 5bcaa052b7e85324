"""stkdist: the project's long runs on a Dask cluster (docs/distributed.md).

The coordinator cuts a run into chunks of the project's own commands (a match in shards), hands
them to Dask workers, keeps a journal of finished chunks, stops handing out work once the SPRT
decides, and merges the chunks with the same command a local run uses, so every report reads the
same. Workers run argument vectors only, never a shell string.
"""
