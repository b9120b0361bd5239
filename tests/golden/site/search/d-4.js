mirrorSearch.d(4,{"p":[["(no project)",""]],"s":["open"]},[
[415,25,"preferred linting","flake8 vs ruff",0,0,"caf9fcb4e26"]]);
