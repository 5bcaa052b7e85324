"""The mutation tools: ci/mutation.sh (tool-generated mutants, stkmutation.tool; its campaign
page, stkmutation.campaign) and ci/check-mutants.sh (the planted defects of ci/mutants/,
stkmutation.planted), with the report format they share (stkmutation.report)."""
