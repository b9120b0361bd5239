mirrorSearch.d(6,{"p":[["(no project)",""]],"s":["active","expired"]},[
[296,17,"preference","uses flake8 for linting",0,0,"m-none-flake8"],
[73,16,"adaptation","Reply in French",0,1,"m-none-expired"],
[51,17,"preference","uses ruff for linting",0,0,"m-none-ruff"],
[282,8,"Thorlabs","Optomechanics.",0,0,"e-none-vendor"],
[89,0,"editor","vim",0,0,"s-none-editor"]]);
