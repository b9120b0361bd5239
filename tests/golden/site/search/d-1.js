mirrorSearch.d(1,{"p":[["G1 Test bench",""],["G2 | Ölpumpe \u003cscript>alert(1)\u003c/script> **bold** `tick`",""]],"s":["open","closed"]},[
[393,34,"unsatisfied","requirement Flatness is satisfied by nothing",0,0,"chk-0cfa08c9ae62",["checks/projects/g1-bench.html"]],
[223,34,"unsupported","validation claim EMC pre-scan is supported by nothing",0,0,"chk-18232c6f9146",["checks/projects/g1-bench.html"]],
[94,32,"unsupported","validation claim Repeatability, enclosure open is supported by nothing",0,1,"chk-a899e54eb2f5",["checks/projects/g1-bench.html"]],
[235,34,"no material","component Lateral support has no material",0,0,"chk-2c8aa5b5cf1a",["checks/projects/g1-bench.html"]],
[1644,34,"no material","component Impeller has no material",1,0,"chk-a6608a309c46",["checks/projects/g2-olpumpe--37a5259e.html"]]]);
