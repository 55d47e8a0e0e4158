"""The pytest plugin (thin glue over the pipeline); filled in by the plugin issue."""
