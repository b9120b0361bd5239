mirrorSearch.d(0,{"p":[["G1 Test bench",""],["G2 | Ölpumpe \u003cscript>alert(1)\u003c/script> **bold** `tick`",""]],"s":["open","resolved","dismissed"]},[
[139,25,"screw count constraint on Mirror mount","10 vs 12",0,0,"c16c3d6a82d"],
[267,24,"screw count constraint on Mirror mount","10 vs 8",0,1,"c5527330d9f"],
[33,24,"result first mode of model Bench modal FEA","142 Hz vs 138 Hz",0,1,"c2d00b75231"],
[48,25,"preferred workflow","merge-commit workflow vs rebase workflow vs squash workflow",0,0,"cb70a6c4900"],
[125,25,"parameter reference mirror mass","4.8 kg vs 4.83 kg",0,0,"c755dfcac69"],
[167,25,"lateral support material","GF-PTFE vs PEEK vs felt",0,0,"c7c1ded4a24"],
[69,24,"serdes refclk frequency","125 MHz vs 156.25 MHz",0,1,"cebeaffedb0"],
[23,24,"verdict of validation claim repeatability test","fail vs pass",0,2,"c363166b997"],
[188,24,"stated role","works as a junior technician vs works as the optics lead of the bench",0,1,"c426a31a7de"],
[1605,25,"coating","MgF₂ | AR `λ/4` \u003cb>coat\u003c/b> vs ZnS *hard* [x](javascript:alert(1)) | `y`",1,0,"c5833a59bc2"]]);
