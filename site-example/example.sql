-- example.sql: the bundled example store of the Human Mirror.
--
-- This file is the source of truth; the binary store is generated from it
-- (never commit a .db):
--
--     make example                      (or: sh site-example/run.sh build)
--     # which does: build/mirror init --store build/example/store.db
--     #             sqlite3 -bail build/example/store.db < site-example/example.sql
--
-- It fills the store-owned tables of store contract version 1
-- (../core/store/store-schema.sql) and leaves the mirror-owned ones (conflicts,
-- conflict_members, sweep_runs) empty for the sweep to fill.
--
-- Three acceptance projects, with facts in all three layers:
--   p04-gigabit         FPGA media converter with an SFP port (1000BASE-LX)
--                       aliases p04, gigabit
--   p05-interferometer  150 mm Fizeau interferometer bench, HeNe 632.8 nm
--                       aliases p05, interferometer
--   p06-polisher        CNC pad/pitch polishing machine for optics to 300 mm
--                       alias p06
-- plus memories tied to no project (project '') and one memory naming
-- 'p03-alignment-jig', a project the projects table does not list.
--
-- Every worked example of SPEC section 8 is marked "-- SPEC 8 example:";
-- every row the sweep must flag is marked "-- CONFLICT n:" with the number
-- used in site-example/README.md, which lists each expected conflict with
-- its slot and members. Rows marked "-- no conflict:" are near misses that
-- must NOT be flagged (duplicates, history, candidates, expiry, windows).
-- Rows marked "-- CHECK rule:" are what a starter rule (../rules/) must
-- find besides the gaps; site-example/README.md lists them.
--
-- Timestamps are fixed and spread over 2025-2026 so every output is
-- deterministic. Expiry is judged against the run's clock: the expected
-- results assume a clock after 2026-06-30 and before 2030-12-31 (the tests
-- use SOURCE_DATE_EPOCH=1793491200, 2026-11-01 00:00:00 UTC).
--
-- Ids are readable and stable: <project>-<kind>-<what>. Entity kinds:
-- prj sys sub cmp ifc req con dec mat par am res vc ven proc art.
-- Relationship ids are '<source id>:<type>:<target id>'.
--
-- The whole load is one transaction: loading it into a store that already
-- holds the example fails on the first duplicate id and changes nothing.

BEGIN;

-- ===========================================================================
-- Projects
-- ===========================================================================

INSERT INTO projects(id, name, aliases, description, created_at) VALUES
 ('p04-gigabit', 'P04 Gigabit Link', '["p04","gigabit"]',
  'FPGA media converter board with one SFP port (1000BASE-LX over single-mode fibre) for the instrument network of the optics lab.',
  '2025-01-08 09:00:00'),
 ('p05-interferometer', 'P05 Interferometer', '["p05","interferometer"]',
  'Phase-shifting Fizeau interferometer bench with a 150 mm aperture and a HeNe source, for acceptance tests of flats and mirrors.',
  '2025-02-03 09:00:00'),
 ('p06-polisher', 'P06 Polisher', '["p06"]',
  'CNC polishing machine with a stroke arm and a rotary table, for pad and pitch polishing of optics up to 300 mm.',
  '2025-03-10 09:00:00');

-- ===========================================================================
-- Layer 3: trusted project state
-- ===========================================================================

INSERT INTO project_state(id, project, category, key, value, source, confidence, status, created_at, updated_at) VALUES
 -- p04 ---------------------------------------------------------------------
 ('p04-st-phase-old', 'p04-gigabit', 'status', 'phase', 'schematic capture', 'weekly status 2025-03-03', 1.0, 'superseded', '2025-03-03 10:00:00', '2025-08-04 10:00:00'),
 ('p04-st-phase', 'p04-gigabit', 'status', 'phase', 'prototype bring-up', 'weekly status 2025-08-04', 1.0, 'active', '2025-08-04 10:00:00', '2025-08-04 10:00:00'),
 ('p04-st-health', 'p04-gigabit', 'status', 'health', 'amber: link up, EMC pre-scan pending', 'weekly status 2026-02-16', 0.9, 'active', '2026-02-16 10:00:00', '2026-02-16 10:00:00'),
 -- CONFLICT 7: state says 125 MHz, decision entity p04-dec-refclk-156 says 156.25 MHz.
 ('p04-st-serdes-refclk', 'p04-gigabit', 'decision', 'serdes_refclk_frequency', '125 MHz', 'design review 2025-06-12', 1.0, 'active', '2025-06-12 15:00:00', '2025-06-12 15:00:00'),
 -- no conflict: agrees with the active decision p04-dec-formfactor-sfp-2.
 ('p04-st-form-factor', 'p04-gigabit', 'decision', 'transceiver_form_factor', 'SFP', 'design review 2025-09-15', 1.0, 'active', '2025-09-15 15:00:00', '2025-09-15 15:00:00'),
 -- no conflict: agrees with requirement p04-req-ber (value 1e-12).
 ('p04-st-ber', 'p04-gigabit', 'requirement', 'link_ber_target', '1e-12', 'requirements spec rev B', 1.0, 'active', '2025-02-20 11:00:00', '2025-02-20 11:00:00'),
 -- no conflict: agrees with requirement p04-req-power (6 W).
 ('p04-st-power', 'p04-gigabit', 'requirement', 'power_budget', '6 W', 'requirements spec rev B', 1.0, 'active', '2025-02-20 11:00:00', '2025-02-20 11:00:00'),
 ('p04-st-hw-lead', 'p04-gigabit', 'contact', 'hardware_lead', 'Lena Brandt <lena.brandt@example.org>', 'project charter', 1.0, 'active', '2025-01-08 09:30:00', '2025-01-08 09:30:00'),
 ('p04-st-pcb-fab', 'p04-gigabit', 'contact', 'pcb_fab', 'Eurocircuits order desk <orders@example.com>', 'purchasing', 0.9, 'active', '2025-07-01 09:00:00', '2025-07-01 09:00:00'),
 ('p04-st-proto-old', 'p04-gigabit', 'milestone', 'prototype_boards', '2025-11-15', 'plan v1', 0.8, 'superseded', '2025-03-03 10:00:00', '2025-10-20 10:00:00'),
 ('p04-st-proto', 'p04-gigabit', 'milestone', 'prototype_boards', '2026-01-20', 'plan v2 (after the SFP cage rework)', 0.9, 'active', '2025-10-20 10:00:00', '2025-10-20 10:00:00'),
 ('p04-st-first-link', 'p04-gigabit', 'milestone', 'first_link_up', '2025-10-14', 'lab log', 1.0, 'active', '2025-10-14 17:00:00', '2025-10-14 17:00:00'),
 -- CONFLICT 11: state says XC7A100T; memories mem-know-fpga-35t and mem-know-fpga-50t disagree.
 ('p04-st-fpga', 'p04-gigabit', 'fact', 'fpga_part', 'XC7A100T', 'BOM rev C', 1.0, 'active', '2025-05-05 10:00:00', '2025-05-05 10:00:00'),
 ('p04-st-standard', 'p04-gigabit', 'fact', 'optical_standard', '1000BASE-LX', 'requirements spec rev B', 1.0, 'active', '2025-02-20 11:00:00', '2025-02-20 11:00:00'),
 ('p04-st-sfp-vendor', 'p04-gigabit', 'fact', 'sfp_vendor', 'Finisar', 'hallway conversation', 0.4, 'invalid', '2025-04-01 12:00:00', '2025-04-15 12:00:00'),
 ('p04-st-repo', 'p04-gigabit', 'config', 'repository', 'git@git.example.org:hw/p04-gigabit.git', 'project charter', 1.0, 'active', '2025-01-08 09:30:00', '2025-01-08 09:30:00'),
 ('p04-st-ci', 'p04-gigabit', 'config', 'ci', 'make check on every push; nightly BER soak on bench 2', 'CI config', 1.0, 'active', '2025-11-03 09:00:00', '2025-11-03 09:00:00'),
 -- p05 ---------------------------------------------------------------------
 -- SPEC 8 example: state p05 / decision / lateral_support_material = GF-PTFE
 -- (project written as the alias 'p05'); decision entity
 -- p05-dec-lateral-material-peek claims PEEK. CONFLICT 1.
 ('p05-st-lateral-support-material', 'p05', 'decision', 'lateral_support_material', 'GF-PTFE', 'design review 2025-11-04', 1.0, 'active', '2025-11-04 14:00:00', '2025-11-04 14:00:00'),
 -- no conflict: agrees with decision p05-dec-config-fizeau.
 ('p05-st-ref-config', 'p05-interferometer', 'decision', 'reference_optics_configuration', 'Fizeau', 'concept review 2025-02-17', 1.0, 'active', '2025-02-17 14:00:00', '2025-02-17 14:00:00'),
 ('p05-st-phase-actuator-old', 'p05-interferometer', 'decision', 'phase_shifter_actuator', 'stepper micrometer', 'concept review 2025-02-17', 1.0, 'superseded', '2025-02-17 14:00:00', '2025-05-22 14:00:00'),
 -- no conflict: agrees with the active decision p05-dec-phase-actuator-piezo.
 ('p05-st-phase-actuator', 'p05-interferometer', 'decision', 'phase_shifter_actuator', 'piezo stack', 'design review 2025-05-22', 1.0, 'active', '2025-05-22 14:00:00', '2025-05-22 14:00:00'),
 -- no conflict: agrees with requirement p05-req-repeat (2 nm rms).
 ('p05-st-repeat', 'p05-interferometer', 'requirement', 'repeatability', '2 nm rms', 'acceptance spec rev A', 1.0, 'active', '2025-02-24 10:00:00', '2025-02-24 10:00:00'),
 -- no conflict: agrees with requirement p05-req-accuracy.
 ('p05-st-accuracy', 'p05-interferometer', 'requirement', 'wavefront_accuracy', 'λ/20 PV', 'acceptance spec rev A', 1.0, 'active', '2025-02-24 10:00:00', '2025-02-24 10:00:00'),
 ('p05-st-phase-old', 'p05-interferometer', 'status', 'phase', 'procurement', 'weekly status 2025-04-07', 1.0, 'superseded', '2025-04-07 09:00:00', '2025-08-25 09:00:00'),
 ('p05-st-phase', 'p05-interferometer', 'status', 'phase', 'alignment', 'weekly status 2025-08-25', 1.0, 'active', '2025-08-25 09:00:00', '2025-08-25 09:00:00'),
 -- no conflict: agrees with requirement p05-req-aperture; the expired
 -- memory mem-know-aperture-old (100 mm) takes no part.
 ('p05-st-aperture', 'interferometer', 'fact', 'aperture', '150 mm', 'acceptance spec rev A', 1.0, 'active', '2025-02-24 10:00:00', '2025-02-24 10:00:00'),
 -- no conflict: state, parameter p05-par-wavelength and memory
 -- mem-know-wavelength all say 632.8 nm (one key, three layers, agreeing).
 ('p05-st-wavelength', 'p05-interferometer', 'fact', 'laser_wavelength', '632.8 nm', 'laser datasheet', 1.0, 'active', '2025-03-12 10:00:00', '2025-03-12 10:00:00'),
 ('p05-st-location', 'p05-interferometer', 'fact', 'location', 'Lab B014, isolated slab', 'facilities', 1.0, 'active', '2025-04-07 09:00:00', '2025-04-07 09:00:00'),
 ('p05-st-first-fringes', 'p05-interferometer', 'milestone', 'first_fringes', '2025-09-03', 'lab log', 1.0, 'active', '2025-09-03 18:00:00', '2025-09-03 18:00:00'),
 ('p05-st-acceptance-old', 'p05-interferometer', 'milestone', 'acceptance', '2026-03-31', 'plan v1', 0.8, 'superseded', '2025-02-24 10:00:00', '2026-01-26 10:00:00'),
 ('p05-st-acceptance', 'p05-interferometer', 'milestone', 'acceptance', '2026-06-30', 'plan v2 (lateral support redesign)', 0.9, 'active', '2026-01-26 10:00:00', '2026-01-26 10:00:00'),
 ('p05-st-optics-lead', 'p05-interferometer', 'contact', 'optics_lead', 'Dr. Mara Okafor <mara.okafor@example.org>', 'project charter', 1.0, 'active', '2025-02-03 09:30:00', '2025-02-03 09:30:00'),
 ('p05-st-zygo-contact', 'p05', 'contact', 'zygo_contact', 'Zygo applications desk', 'purchasing', 0.8, 'active', '2025-06-02 09:00:00', '2025-06-02 09:00:00'),
 ('p05-st-data-dir', 'p05-interferometer', 'config', 'data_dir', '/srv/p05/interferograms', 'lab IT', 1.0, 'active', '2025-09-01 09:00:00', '2025-09-01 09:00:00'),
 ('p05-st-pipeline', 'p05-interferometer', 'config', 'analysis_pipeline', 'unwrap, Zernike fit (37 terms), report', 'analysis notes', 0.9, 'active', '2025-10-06 09:00:00', '2025-10-06 09:00:00'),
 -- p06 ---------------------------------------------------------------------
 ('p06-st-phase-old', 'p06-polisher', 'status', 'phase', 'assembly', 'weekly status 2025-09-01', 1.0, 'superseded', '2025-09-01 09:00:00', '2026-03-02 09:00:00'),
 ('p06-st-phase', 'p06-polisher', 'status', 'phase', 'commissioning', 'weekly status 2026-03-02', 1.0, 'active', '2026-03-02 09:00:00', '2026-03-02 09:00:00'),
 ('p06-st-safety-review', 'p06-polisher', 'status', 'safety_review', 'passed 2026-04-20', 'risk assessment rev 2', 1.0, 'active', '2026-04-20 16:00:00', '2026-04-20 16:00:00'),
 -- no conflict: agrees with the active decision p06-dec-abrasive-ceria.
 ('p06-st-abrasive', 'p06-polisher', 'decision', 'slurry_abrasive', 'cerium oxide', 'process review 2025-07-08', 1.0, 'active', '2025-07-08 11:00:00', '2025-07-08 11:00:00'),
 -- no conflict: agrees with the active decision p06-dec-arm-drive-linear.
 ('p06-st-arm-drive', 'p06-polisher', 'decision', 'stroke_arm_drive', 'linear motor', 'design review 2025-06-03', 1.0, 'active', '2025-06-03 11:00:00', '2025-06-03 11:00:00'),
 -- CONFLICT 6 (three layers on one key): state 300 rpm, parameter
 -- p06-par-spindle-max 350 rpm, memory mem-know-spindle 250 rpm.
 ('p06-st-spindle-max', 'p06', 'requirement', 'spindle_max_speed', '300 rpm', 'requirements spec rev A', 1.0, 'active', '2025-04-14 10:00:00', '2025-04-14 10:00:00'),
 -- no conflict: agrees with requirement p06-req-figure.
 ('p06-st-figure', 'p06-polisher', 'requirement', 'surface_figure', 'λ/10 PV', 'requirements spec rev A', 1.0, 'active', '2025-04-14 10:00:00', '2025-04-14 10:00:00'),
 -- no conflict: agrees with requirement p06-req-diameter.
 ('p06-st-diameter', 'p06-polisher', 'fact', 'max_workpiece_diameter', '300 mm', 'requirements spec rev A', 1.0, 'active', '2025-04-14 10:00:00', '2025-04-14 10:00:00'),
 ('p06-st-serial', 'p06-polisher', 'fact', 'machine_serial', 'P06-001', 'nameplate', 1.0, 'active', '2026-02-09 10:00:00', '2026-02-09 10:00:00'),
 ('p06-st-first-polish-old', 'p06-polisher', 'milestone', 'first_polish', '2026-02-01', 'plan v1', 0.8, 'superseded', '2025-04-14 10:00:00', '2025-12-15 10:00:00'),
 ('p06-st-first-polish', 'p06-polisher', 'milestone', 'first_polish', '2026-05-12', 'plan v2 (granite base delivery slipped)', 0.9, 'active', '2025-12-15 10:00:00', '2025-12-15 10:00:00'),
 ('p06-st-acceptance', 'p06-polisher', 'milestone', 'acceptance_test', '2026-09-30', 'plan v2', 0.9, 'active', '2025-12-15 10:00:00', '2025-12-15 10:00:00'),
 ('p06-st-process-eng', 'p06-polisher', 'contact', 'process_engineer', 'Jonas Weber <jonas.weber@example.org>', 'project charter', 1.0, 'active', '2025-03-10 09:30:00', '2025-03-10 09:30:00'),
 ('p06-st-safety-officer', 'p06-polisher', 'contact', 'safety_officer', 'Ines Kovač <ines.kovac@example.org>', 'risk assessment rev 2', 1.0, 'active', '2026-04-20 16:00:00', '2026-04-20 16:00:00'),
 ('p06-st-firmware', 'p06-polisher', 'config', 'controller_firmware', 'TwinCAT 3.1.4024.56', 'controller export', 1.0, 'active', '2026-03-16 09:00:00', '2026-03-16 09:00:00'),
 ('p06-st-recipes', 'p06-polisher', 'config', 'recipe_dir', '/srv/p06/recipes', 'lab IT', 0.9, 'active', '2026-03-16 09:00:00', '2026-03-16 09:00:00'),
 -- CHECK stale-state: the spindle got new bearings in 2026-06 (family
 -- 'spindle'), while spindle_max_speed (p06-st-spindle-max, 2025-04-14)
 -- was never revisited.
 ('p06-st-spindle-bearings', 'p06-polisher', 'fact', 'spindle_bearings', 'hybrid ceramic, fitted 2026-06-15', 'service report 2026-06', 1.0, 'active', '2026-06-15 10:00:00', '2026-06-15 10:00:00');

-- ===========================================================================
-- Layer 2: entities
-- ===========================================================================

INSERT INTO entities(id, entity_type, name, project, description, properties, status, confidence, source_refs, created_at, updated_at) VALUES
 -- p04: structure ------------------------------------------------------------
 ('p04-prj', 'project', 'P04 Gigabit Link', 'p04-gigabit', 'FPGA media converter board with one SFP port for the lab instrument network.', '{}', 'active', 1.0, '["project charter"]', '2025-01-08 09:00:00', '2025-01-08 09:00:00'),
 ('p04-sys-board', 'system', 'Gigabit link board', 'p04-gigabit', 'The whole board: clocking, optics, FPGA, power, PCB and enclosure.', '{}', 'active', 1.0, '["schematic rev C"]', '2025-01-20 10:00:00', '2025-01-20 10:00:00'),
 ('p04-sub-clocking', 'subsystem', 'Clocking', 'p04-gigabit', 'Reference clock for the FPGA transceivers.', '{}', 'active', 1.0, '["schematic rev C"]', '2025-01-20 10:00:00', '2025-01-20 10:00:00'),
 ('p04-sub-optical', 'subsystem', 'Optical front end', 'p04-gigabit', 'SFP cage and pluggable transceiver.', '{}', 'active', 1.0, '["schematic rev C"]', '2025-01-20 10:00:00', '2025-01-20 10:00:00'),
 ('p04-sub-fpga', 'subsystem', 'FPGA logic', 'p04-gigabit', 'Artix-7 FPGA with the 1000BASE-X PCS/PMA and its cooling.', '{}', 'active', 1.0, '["schematic rev C"]', '2025-01-20 10:00:00', '2025-01-20 10:00:00'),
 ('p04-sub-power', 'subsystem', 'Power', 'p04-gigabit', '12 V input, core and I/O rails.', '{}', 'active', 1.0, '["schematic rev C"]', '2025-01-20 10:00:00', '2025-01-20 10:00:00'),
 ('p04-sub-pcb', 'subsystem', 'PCB', 'p04-gigabit', 'Board, stackup and high-speed routing.', '{}', 'active', 1.0, '["stackup drawing rev B"]', '2025-01-20 10:00:00', '2025-01-20 10:00:00'),
 ('p04-sub-enclosure', 'subsystem', 'Enclosure', 'p04-gigabit', '3U Eurocard cassette with a front panel.', '{}', 'active', 1.0, '["mechanical drawing"]', '2025-01-20 10:00:00', '2025-01-20 10:00:00'),
 -- components without a material entity (the overview lists them as gaps):
 -- p04-cmp-ref-osc, p04-cmp-sfp-module, p04-cmp-fpga, p04-cmp-core-reg.
 ('p04-cmp-ref-osc', 'component', 'Reference oscillator', 'p04-gigabit', '125 MHz LVDS crystal oscillator feeding the GTP quad.', '{"subsystem":"Clocking","part_number":"SiT9121AI-2C3-33E125.000000"}', 'active', 1.0, '["BOM rev C"]', '2025-02-03 10:00:00', '2025-02-03 10:00:00'),
 ('p04-cmp-sfp-cage', 'component', 'SFP cage', 'p04-gigabit', 'Press-fit SFP cage with light pipes, at the board edge.', '{"subsystem":"Optical front end","part_number":"TE 2227302-1"}', 'active', 1.0, '["BOM rev C"]', '2025-02-03 10:00:00', '2025-02-03 10:00:00'),
 ('p04-cmp-sfp-module', 'component', 'SFP transceiver', 'p04-gigabit', '1000BASE-LX single-mode SFP module, 1310 nm, 10 km.', '{"subsystem":"Optical front end"}', 'active', 1.0, '["BOM rev C"]', '2025-02-03 10:00:00', '2025-02-03 10:00:00'),
 ('p04-cmp-fpga', 'component', 'FPGA', 'p04-gigabit', 'Artix-7 with GTP transceivers running the 1000BASE-X PCS/PMA core.', '{"subsystem":"FPGA logic"}', 'active', 1.0, '["BOM rev C"]', '2025-02-03 10:00:00', '2025-02-03 10:00:00'),
 ('p04-cmp-heatsink', 'component', 'FPGA heatsink', 'p04-gigabit', 'Pin-fin heatsink clipped over the FPGA.', '{"subsystem":"FPGA logic"}', 'active', 1.0, '["thermal review 2025-09"]', '2025-09-08 10:00:00', '2025-09-08 10:00:00'),
 ('p04-cmp-thermal-pad', 'component', 'Thermal pad', 'p04-gigabit', 'Gap pad between FPGA lid and heatsink.', '{"subsystem":"FPGA logic"}', 'active', 1.0, '["thermal review 2025-09"]', '2025-09-08 10:00:00', '2025-09-08 10:00:00'),
 ('p04-cmp-core-reg', 'component', 'Core regulator', 'p04-gigabit', '1.0 V synchronous buck for VCCINT.', '{"subsystem":"Power"}', 'active', 1.0, '["schematic rev C"]', '2025-02-03 10:00:00', '2025-02-03 10:00:00'),
 ('p04-cmp-main-board', 'component', 'Main board', 'p04-gigabit', '160 x 100 mm Eurocard PCB.', '{"subsystem":"PCB"}', 'active', 1.0, '["stackup drawing rev B"]', '2025-02-03 10:00:00', '2025-02-03 10:00:00'),
 ('p04-cmp-front-panel', 'component', 'Front panel', 'p04-gigabit', '3U front panel with the SFP cut-out and status LEDs.', '{"subsystem":"Enclosure"}', 'active', 1.0, '["mechanical drawing"]', '2025-04-14 10:00:00', '2025-04-14 10:00:00'),
 ('p04-cmp-housing', 'component', 'Cassette housing', 'p04-gigabit', 'Sheet-metal cassette for a 19-inch subrack.', '{"subsystem":"Enclosure"}', 'active', 1.0, '["mechanical drawing"]', '2025-04-14 10:00:00', '2025-04-14 10:00:00'),
 -- p04: interfaces -------------------------------------------------------------
 ('p04-ifc-serdes', 'interface', '1000BASE-X SerDes link', 'p04-gigabit', 'AC-coupled 1.25 Gbd CML pair between the FPGA GTP and the SFP.', '{"standard":"IEEE 802.3 clause 36","rate":"1.25 Gbd"}', 'active', 1.0, '["schematic rev C"]', '2025-02-03 10:00:00', '2025-02-03 10:00:00'),
 ('p04-ifc-optical', 'interface', 'Optical port (LC duplex)', 'p04-gigabit', 'Single-mode fibre port of the SFP module.', '{"standard":"1000BASE-LX","connector":"LC duplex"}', 'active', 1.0, '["requirements spec rev B"]', '2025-02-03 10:00:00', '2025-02-03 10:00:00'),
 ('p04-ifc-refclk', 'interface', 'GTP reference clock', 'p04-gigabit', 'LVDS clock into MGTREFCLK0 of quad 216.', '{"signalling":"LVDS"}', 'active', 1.0, '["schematic rev C"]', '2025-02-03 10:00:00', '2025-02-03 10:00:00'),
 ('p04-ifc-power-in', 'interface', '12 V DC input', 'p04-gigabit', 'Backplane power pins of the DIN 41612 connector.', '{"voltage":"12 V","connector":"DIN 41612"}', 'active', 1.0, '["schematic rev C"]', '2025-02-03 10:00:00', '2025-02-03 10:00:00'),
 ('p04-ifc-jtag', 'interface', 'JTAG and configuration', 'p04-gigabit', '2x7 2 mm header for programming and debug.', '{}', 'active', 1.0, '["schematic rev C"]', '2025-02-03 10:00:00', '2025-02-03 10:00:00'),
 -- p04: requirements -------------------------------------------------------------
 ('p04-req-line-rate', 'requirement', 'Line rate', 'p04-gigabit', 'Serial line rate on the fibre.', '{"key":"line rate","value":"1.25","unit":"Gbd"}', 'active', 1.0, '["requirements spec rev B"]', '2025-02-20 11:00:00', '2025-02-20 11:00:00'),
 ('p04-req-ber', 'requirement', 'Link BER target', 'p04-gigabit', 'Bit error ratio over a 24 h soak.', '{"key":"link BER target","value":"1e-12"}', 'active', 1.0, '["requirements spec rev B"]', '2025-02-20 11:00:00', '2025-02-20 11:00:00'),
 ('p04-req-power', 'requirement', 'Power budget', 'p04-gigabit', 'Total board power from the 12 V backplane.', '{"key":"power budget","value":"6","unit":"W"}', 'active', 1.0, '["requirements spec rev B"]', '2025-02-20 11:00:00', '2025-02-20 11:00:00'),
 ('p04-req-ambient', 'requirement', 'Max ambient temperature', 'p04-gigabit', 'Subrack air temperature in operation.', '{"key":"max ambient temperature","value":"50","unit":"°C"}', 'active', 1.0, '["requirements spec rev B"]', '2025-02-20 11:00:00', '2025-02-20 11:00:00'),
 ('p04-req-reach', 'requirement', 'Fibre reach', 'p04-gigabit', 'Single-mode reach between buildings.', '{"key":"fibre reach","value":"10","unit":"km"}', 'active', 1.0, '["requirements spec rev B"]', '2025-02-20 11:00:00', '2025-02-20 11:00:00'),
 ('p04-req-format', 'requirement', 'Board format', 'p04-gigabit', 'Fits the existing 3U subrack.', '{"key":"board format","value":"3U Eurocard, 160 x 100 mm"}', 'active', 1.0, '["requirements spec rev B"]', '2025-02-20 11:00:00', '2025-02-20 11:00:00'),
 -- gap: nothing satisfies the EMC requirement yet.
 ('p04-req-emc', 'requirement', 'EMC emission class', 'p04-gigabit', 'Radiated and conducted emissions.', '{"key":"emc class","value":"EN 55032 class B"}', 'active', 1.0, '["requirements spec rev B"]', '2025-02-20 11:00:00', '2025-02-20 11:00:00'),
 ('p04-req-poe', 'requirement', 'PoE input', 'p04-gigabit', 'Proposed: power the board from PoE instead of the backplane.', '{"key":"poe input","value":"IEEE 802.3af"}', 'candidate', 0.5, '["meeting 2026-01-12"]', '2026-01-12 15:00:00', '2026-01-12 15:00:00'),
 -- p04: constraints --------------------------------------------------------------
 -- CONFLICT 8: two active constraints on (PCB stackup, layer count): 8 vs 10.
 ('p04-con-layers-8', 'constraint', 'Stackup layer count (fab quote)', 'p04-gigabit', 'Cheapest stackup the fab quoted with controlled impedance.', '{"target":"PCB stackup","kind":"layer count","value":"8"}', 'active', 0.9, '["Eurocircuits quote Q-2025-0412"]', '2025-05-12 10:00:00', '2025-05-12 10:00:00'),
 ('p04-con-layers-10', 'constraint', 'Stackup layer count (SI review)', 'p04-gigabit', 'Design review asked for two more ground layers around the SerDes pairs.', '{"target":"PCB stackup","kind":"layer count","value":"10"}', 'active', 0.9, '["design review 2025-06-12"]', '2025-06-12 15:00:00', '2025-06-12 15:00:00'),
 ('p04-con-thickness', 'constraint', 'Board thickness', 'p04-gigabit', 'Card guides of the subrack.', '{"target":"PCB stackup","kind":"thickness","value":"1.6","unit":"mm"}', 'active', 1.0, '["stackup drawing rev B"]', '2025-05-12 10:00:00', '2025-05-12 10:00:00'),
 ('p04-con-ripple', 'constraint', 'Core rail ripple', 'p04-gigabit', 'VCCINT ripple limit from the FPGA datasheet.', '{"target":"core regulator","kind":"ripple","value":"10","unit":"mV"}', 'active', 1.0, '["DS181"]', '2025-03-03 10:00:00', '2025-03-03 10:00:00'),
 ('p04-con-jitter', 'constraint', 'Reference clock jitter', 'p04-gigabit', 'GTP reference clock phase jitter (12 kHz to 20 MHz).', '{"target":"reference clock","kind":"rms jitter","value":"1","unit":"ps"}', 'active', 1.0, '["UG482"]', '2025-03-03 10:00:00', '2025-03-03 10:00:00'),
 ('p04-con-impedance', 'constraint', 'SerDes trace impedance', 'p04-gigabit', 'Differential impedance of the SerDes pairs.', '{"target":"serdes traces","kind":"differential impedance","value":"100","unit":"Ω"}', 'active', 1.0, '["stackup drawing rev B"]', '2025-05-12 10:00:00', '2025-05-12 10:00:00'),
 -- p04: decisions ----------------------------------------------------------------
 -- CONFLICT 7: contradicts state p04-st-serdes-refclk (125 MHz).
 ('p04-dec-refclk-156', 'decision', 'SerDes reference clock 156.25 MHz', 'p04-gigabit', 'Keep the 10GBASE-R clock so a later board can run 10G.', '{"target":"serdes refclk","field":"frequency","value":"156.25 MHz"}', 'active', 0.8, '["meeting 2025-11-24"]', '2025-11-24 16:00:00', '2025-11-24 16:00:00'),
 -- Decision log reversal A -> B -> A on (transceiver, form factor):
 -- SFP (superseded), then SFP+ (superseded), then SFP again (active).
 -- no conflict: only one row of the slot is active, and it agrees with state.
 ('p04-dec-formfactor-sfp-1', 'decision', 'Transceiver form factor: SFP', 'p04-gigabit', 'Plain SFP is enough for 1000BASE-LX.', '{"target":"transceiver","field":"form factor","value":"SFP"}', 'superseded', 1.0, '["concept review 2025-02-10"]', '2025-02-10 14:00:00', '2025-05-20 14:00:00'),
 ('p04-dec-formfactor-sfpplus', 'decision', 'Transceiver form factor: SFP+', 'p04-gigabit', 'SFP+ cage to keep a 10G option open.', '{"target":"transceiver","field":"form factor","value":"SFP+"}', 'superseded', 1.0, '["design review 2025-05-20"]', '2025-05-20 14:00:00', '2025-09-15 15:00:00'),
 ('p04-dec-formfactor-sfp-2', 'decision', 'Transceiver form factor: SFP (reverted)', 'p04-gigabit', 'Back to SFP: the SFP+ cage footprint failed on board #2 and 10G is out of scope.', '{"target":"transceiver","field":"form factor","value":"SFP"}', 'active', 1.0, '["design review 2025-09-15"]', '2025-09-15 15:00:00', '2025-09-15 15:00:00'),
 -- no conflict: superseded LDO, then active buck, on (core regulator, topology).
 ('p04-dec-core-reg-ldo', 'decision', 'Core regulator: LDO', 'p04-gigabit', 'Low noise, simple.', '{"target":"core regulator","field":"topology","value":"LDO"}', 'superseded', 1.0, '["concept review 2025-02-10"]', '2025-02-10 14:00:00', '2025-04-28 14:00:00'),
 ('p04-dec-core-reg-buck', 'decision', 'Core regulator: synchronous buck', 'p04-gigabit', 'The LDO would dissipate 2.2 W; a buck keeps the power budget.', '{"target":"core regulator","field":"topology","value":"synchronous buck"}', 'active', 1.0, '["design review 2025-04-28"]', '2025-04-28 14:00:00', '2025-04-28 14:00:00'),
 ('p04-dec-hdl', 'decision', 'Firmware language: VHDL-2008', 'p04-gigabit', 'Matches the lab''s existing IP.', '{"target":"firmware","field":"language","value":"VHDL-2008"}', 'active', 1.0, '["concept review 2025-02-10"]', '2025-02-10 14:00:00', '2025-02-10 14:00:00'),
 ('p04-dec-mgmt', 'decision', 'Management interface: UART console', 'p04-gigabit', 'A UART on the front panel is enough for counters and link status.', '{"target":"management interface","field":"protocol","value":"UART console"}', 'active', 0.9, '["design review 2025-06-12"]', '2025-06-12 15:00:00', '2025-06-12 15:00:00'),
 -- p04: materials ----------------------------------------------------------------
 -- no conflict: the Main board uses the active 370HR and the superseded
 -- standard FR-4 (history, replaced by 370HR).
 ('p04-mat-fr4-std', 'material', 'FR-4, standard Tg 135', 'p04-gigabit', 'First stackup quote.', '{"component":"Main board"}', 'superseded', 1.0, '["Eurocircuits quote Q-2025-0301"]', '2025-03-01 10:00:00', '2025-05-12 10:00:00'),
 ('p04-mat-fr4-370hr', 'material', 'FR-4, Isola 370HR', 'p04-gigabit', 'High-Tg laminate with a known Dk for the SerDes pairs.', '{"component":"Main board","dk":"4.04 at 1 GHz"}', 'active', 1.0, '["stackup drawing rev B"]', '2025-05-12 10:00:00', '2025-05-12 10:00:00'),
 ('p04-mat-heatsink', 'material', 'Aluminium 6063-T5', 'p04-gigabit', 'Extruded, black anodised.', '{"component":"FPGA heatsink"}', 'active', 1.0, '["heatsink datasheet"]', '2025-09-08 10:00:00', '2025-09-08 10:00:00'),
 ('p04-mat-gap-pad', 'material', 'Silicone gap pad, 3 W/mK', 'p04-gigabit', 'Bergquist Gap Pad 3000S30, 0.5 mm.', '{"component":"Thermal pad"}', 'active', 1.0, '["gap pad datasheet"]', '2025-09-08 10:00:00', '2025-09-08 10:00:00'),
 ('p04-mat-cage', 'material', 'Tin-plated copper alloy', 'p04-gigabit', 'SFP cage sheet metal.', '{"component":"SFP cage"}', 'active', 1.0, '["TE drawing 2227302"]', '2025-02-03 10:00:00', '2025-02-03 10:00:00'),
 ('p04-mat-front-panel', 'material', 'Aluminium 5052, clear anodised', 'p04-gigabit', 'Standard 3U panel blank.', '{"component":"Front panel"}', 'active', 1.0, '["mechanical drawing"]', '2025-04-14 10:00:00', '2025-04-14 10:00:00'),
 ('p04-mat-housing', 'material', 'Steel DC01, zinc plated', 'p04-gigabit', 'Cassette sheet metal.', '{"component":"Cassette housing"}', 'active', 1.0, '["mechanical drawing"]', '2025-04-14 10:00:00', '2025-04-14 10:00:00'),
 -- p04: parameters ---------------------------------------------------------------
 ('p04-par-wavelength', 'parameter', 'wavelength', 'p04-gigabit', 'Transmitter centre wavelength.', '{"scope":"SFP transceiver","value":"1310","unit":"nm"}', 'active', 1.0, '["SFP datasheet"]', '2025-02-03 10:00:00', '2025-02-03 10:00:00'),
 ('p04-par-launch', 'parameter', 'launch power', 'p04-gigabit', 'Minimum average launch power.', '{"scope":"SFP transceiver","value":"-9.5","unit":"dBm"}', 'active', 1.0, '["SFP datasheet"]', '2025-02-03 10:00:00', '2025-02-03 10:00:00'),
 ('p04-par-sensitivity', 'parameter', 'receiver sensitivity', 'p04-gigabit', 'Worst-case receiver sensitivity.', '{"scope":"SFP transceiver","value":"-20","unit":"dBm"}', 'active', 1.0, '["SFP datasheet"]', '2025-02-03 10:00:00', '2025-02-03 10:00:00'),
 ('p04-par-osc-freq', 'parameter', 'frequency', 'p04-gigabit', 'Nominal oscillator frequency.', '{"scope":"reference oscillator","value":125,"unit":"MHz"}', 'active', 1.0, '["BOM rev C"]', '2025-02-03 10:00:00', '2025-02-03 10:00:00'),
 ('p04-par-osc-stability', 'parameter', 'stability', 'p04-gigabit', 'Total frequency stability over temperature.', '{"scope":"reference oscillator","value":50,"unit":"ppm"}', 'active', 1.0, '["oscillator datasheet"]', '2025-02-03 10:00:00', '2025-02-03 10:00:00'),
 ('p04-par-core-voltage', 'parameter', 'output voltage', 'p04-gigabit', 'VCCINT set point.', '{"scope":"core regulator","value":"1.0","unit":"V"}', 'active', 1.0, '["schematic rev C"]', '2025-04-28 14:00:00', '2025-04-28 14:00:00'),
 -- no conflict: both active, but their validity windows do not overlap
 -- (1.2 MHz until 2025-08-31, 2.2 MHz from 2025-09-01): history.
 ('p04-par-fsw-1', 'parameter', 'switching frequency', 'p04-gigabit', 'Board rev A and B.', '{"scope":"core regulator","value":"1.2","unit":"MHz","valid_from":"2025-01-01 00:00:00","valid_until":"2025-08-31 23:59:59"}', 'active', 1.0, '["schematic rev B"]', '2025-04-28 14:00:00', '2025-04-28 14:00:00'),
 ('p04-par-fsw-2', 'parameter', 'switching frequency', 'p04-gigabit', 'Board rev C: moved above the AM band after the EMC pre-check.', '{"scope":"core regulator","value":"2.2","unit":"MHz","valid_from":"2025-09-01 00:00:00"}', 'active', 1.0, '["schematic rev C"]', '2025-09-01 10:00:00', '2025-09-01 10:00:00'),
 ('p04-par-attenuation', 'parameter', 'fibre attenuation', 'p04-gigabit', 'Copied from a 1550 nm datasheet by mistake.', '{"scope":"fibre","value":"0.2","unit":"dB/km"}', 'invalid', 0.3, '["link budget v1"]', '2025-03-17 10:00:00', '2025-04-02 10:00:00'),
 -- p04: analysis -----------------------------------------------------------------
 ('p04-am-link-budget', 'analysis_model', 'Link budget', 'p04-gigabit', 'Optical power budget over 10 km of G.652 fibre.', '{"subsystem":"Optical front end","method":"optical power budget","solver":"spreadsheet"}', 'active', 1.0, '["link budget v2"]', '2025-04-02 10:00:00', '2025-04-02 10:00:00'),
 ('p04-am-si', 'analysis_model', 'SerDes channel simulation', 'p04-gigabit', 'Board channel from GTP to SFP connector.', '{"subsystem":"PCB","method":"IBIS-AMI channel simulation","solver":"HyperLynx SI"}', 'active', 1.0, '["SI report 2025-06"]', '2025-06-05 10:00:00', '2025-06-05 10:00:00'),
 ('p04-am-thermal', 'analysis_model', 'Board thermal model', 'p04-gigabit', 'Board in the cassette at 50 °C ambient, 0.5 m/s airflow.', '{"subsystem":"FPGA logic","method":"CFD","solver":"FloTHERM"}', 'active', 1.0, '["thermal review 2025-09"]', '2025-08-18 10:00:00', '2025-08-18 10:00:00'),
 ('p04-res-margin', 'result', 'Link budget margin', 'p04-gigabit', 'Margin at 10 km with two connector pairs.', '{"model":"Link budget","key":"margin","value":"5.5","unit":"dB"}', 'active', 1.0, '["link budget v2"]', '2025-04-02 10:00:00', '2025-04-02 10:00:00'),
 ('p04-res-eye', 'result', 'Eye height at the SFP', 'p04-gigabit', 'Worst corner.', '{"model":"SerDes channel simulation","key":"eye height","value":"180","unit":"mV"}', 'active', 1.0, '["SI report 2025-06"]', '2025-06-05 10:00:00', '2025-06-05 10:00:00'),
 ('p04-res-tj-old', 'result', 'FPGA junction temperature (no heatsink)', 'p04-gigabit', 'First run, bare package.', '{"model":"Board thermal model","key":"FPGA junction temperature","value":"97","unit":"°C"}', 'superseded', 1.0, '["thermal review 2025-08"]', '2025-08-18 10:00:00', '2025-09-08 10:00:00'),
 ('p04-res-tj', 'result', 'FPGA junction temperature', 'p04-gigabit', 'With the pin-fin heatsink and gap pad.', '{"model":"Board thermal model","key":"FPGA junction temperature","value":"78","unit":"°C"}', 'active', 1.0, '["thermal review 2025-09"]', '2025-09-08 10:00:00', '2025-09-08 10:00:00'),
 -- CHECK edge-outside-window: the ripple run (2025-10-06) depends on the
 -- rev A/B switching frequency p04-par-fsw-1, valid until 2025-08-31.
 ('p04-res-ripple', 'result', 'Core regulator output ripple', 'p04-gigabit', 'Simulated with the rev B switching frequency.', '{"key":"output ripple","value":"12","unit":"mV"}', 'active', 0.9, '["power notes 2025-10"]', '2025-10-06 10:00:00', '2025-10-06 10:00:00'),
 ('p04-vc-ber', 'validation_claim', 'BER below 1e-12 over a 24 h soak', 'p04-gigabit', 'Board #2, 10 km spool, PRBS7.', '{"key":"link BER soak","verdict":"pass"}', 'active', 1.0, '["BER soak report 2025-10"]', '2025-10-27 10:00:00', '2025-10-27 10:00:00'),
 ('p04-vc-thermal', 'validation_claim', 'Thermal margin at 50 °C ambient', 'p04-gigabit', 'Junction stays below 85 °C.', '{"key":"thermal at 50 °C ambient","verdict":"pass"}', 'active', 0.9, '["thermal review 2025-09"]', '2025-09-08 10:00:00', '2025-09-08 10:00:00'),
 -- gap: nothing supports this claim yet.
 ('p04-vc-emc', 'validation_claim', 'EMC pre-scan', 'p04-gigabit', 'Pre-compliance scan at the test house.', '{"key":"emc pre-scan","verdict":"pending"}', 'active', 1.0, '["test plan"]', '2026-02-16 10:00:00', '2026-02-16 10:00:00'),
 -- p04: vendors, processes, artifacts -------------------------------------------
 ('p04-ven-amd', 'vendor', 'AMD (Xilinx)', 'p04-gigabit', 'FPGA and transceiver documentation.', '{"url":"https://www.amd.com"}', 'active', 1.0, '[]', '2025-02-03 10:00:00', '2025-02-03 10:00:00'),
 ('p04-ven-eurocircuits', 'vendor', 'Eurocircuits', 'p04-gigabit', 'PCB fabrication and assembly.', '{"url":"https://www.eurocircuits.com"}', 'active', 1.0, '[]', '2025-03-01 10:00:00', '2025-03-01 10:00:00'),
 ('p04-ven-fs', 'vendor', 'FS.com', 'p04-gigabit', 'SFP modules.', '{}', 'active', 1.0, '[]', '2025-02-03 10:00:00', '2025-02-03 10:00:00'),
 ('p04-ven-sitime', 'vendor', 'SiTime', 'p04-gigabit', 'MEMS oscillators.', '{}', 'active', 1.0, '[]', '2025-02-03 10:00:00', '2025-02-03 10:00:00'),
 ('p04-proc-assembly', 'process', 'Reflow assembly (IPC-A-610 class 2)', 'p04-gigabit', 'Lead-free reflow, SFP cage pressed in afterwards.', '{}', 'active', 1.0, '["assembly notes"]', '2025-07-01 10:00:00', '2025-07-01 10:00:00'),
 ('p04-proc-soak', 'process', '24 h BER soak test', 'p04-gigabit', 'PRBS7 through a 10 km spool, error counter read over the UART.', '{}', 'active', 1.0, '["test plan"]', '2025-10-13 10:00:00', '2025-10-13 10:00:00'),
 ('p04-art-schematic', 'artifact', 'Schematic rev C', 'p04-gigabit', 'KiCad project, tag rev-c.', '{"path":"hw/p04/schematic-revC.pdf"}', 'active', 1.0, '[]', '2025-09-01 10:00:00', '2025-09-01 10:00:00'),
 ('p04-art-stackup', 'artifact', 'Stackup drawing rev B', 'p04-gigabit', 'Layer order, impedances, laminate.', '{"path":"hw/p04/stackup-revB.pdf"}', 'active', 1.0, '[]', '2025-05-12 10:00:00', '2025-05-12 10:00:00'),
 ('p04-art-ber-report', 'artifact', 'BER soak report 2025-10', 'p04-gigabit', 'Error counts and setup photos.', '{"path":"reports/p04-ber-2025-10.pdf"}', 'active', 1.0, '[]', '2025-10-27 10:00:00', '2025-10-27 10:00:00'),
 ('p04-art-review', 'artifact', 'Design review notes 2025-06-12', 'p04-gigabit', 'Stackup, clocking and power review.', '{"path":"reviews/p04-2025-06-12.md"}', 'active', 1.0, '[]', '2025-06-12 15:00:00', '2025-06-12 15:00:00'),

 -- p05: structure ------------------------------------------------------------
 ('p05-prj', 'project', 'P05 Interferometer', 'p05-interferometer', 'Phase-shifting Fizeau interferometer bench, 150 mm aperture.', '{}', 'active', 1.0, '["project charter"]', '2025-02-03 09:00:00', '2025-02-03 09:00:00'),
 ('p05-sys-bench', 'system', 'Interferometer bench', 'p05-interferometer', 'Source, beam expander, reference optics, mirror mount and imaging on one metrology frame.', '{}', 'active', 1.0, '["bench layout rev D"]', '2025-02-17 10:00:00', '2025-02-17 10:00:00'),
 ('p05-sub-source', 'subsystem', 'Source', 'p05-interferometer', 'Stabilised HeNe laser and spatial filter.', '{}', 'active', 1.0, '["bench layout rev D"]', '2025-02-17 10:00:00', '2025-02-17 10:00:00'),
 ('p05-sub-expander', 'subsystem', 'Beam expander', 'p05-interferometer', 'Collimates the filtered beam to 150 mm.', '{}', 'active', 1.0, '["bench layout rev D"]', '2025-02-17 10:00:00', '2025-02-17 10:00:00'),
 ('p05-sub-refoptics', 'subsystem', 'Reference optics', 'p05-interferometer', 'Transmission flat on the phase shifter, reference mirror.', '{}', 'active', 1.0, '["bench layout rev D"]', '2025-02-17 10:00:00', '2025-02-17 10:00:00'),
 ('p05-sub-mount', 'subsystem', 'Mirror mount', 'p05-interferometer', 'Holds the test mirror with axial and lateral supports.', '{}', 'active', 1.0, '["bench layout rev D"]', '2025-02-17 10:00:00', '2025-02-17 10:00:00'),
 ('p05-sub-imaging', 'subsystem', 'Imaging', 'p05-interferometer', 'Imaging lens and camera.', '{}', 'active', 1.0, '["bench layout rev D"]', '2025-02-17 10:00:00', '2025-02-17 10:00:00'),
 ('p05-sub-frame', 'subsystem', 'Metrology frame', 'p05-interferometer', 'Bench plate and Invar struts.', '{}', 'active', 1.0, '["bench layout rev D"]', '2025-02-17 10:00:00', '2025-02-17 10:00:00'),
 ('p05-sub-enclosure', 'subsystem', 'Enclosure', 'p05-interferometer', 'Thermal and air-turbulence enclosure.', '{}', 'active', 1.0, '["bench layout rev D"]', '2025-02-17 10:00:00', '2025-02-17 10:00:00'),
 -- components without a material entity (gaps): p05-cmp-laser,
 -- p05-cmp-lateral (its material is the disputed one), p05-cmp-camera.
 ('p05-cmp-laser', 'component', 'HeNe laser', 'p05-interferometer', 'Frequency-stabilised 632.8 nm, 1 mW, fibre-coupled.', '{"subsystem":"Source"}', 'active', 1.0, '["laser datasheet"]', '2025-03-12 10:00:00', '2025-03-12 10:00:00'),
 ('p05-cmp-spatial-filter', 'component', 'Spatial filter', 'p05-interferometer', '10 µm pinhole behind a 20x objective.', '{"subsystem":"Source"}', 'active', 1.0, '["bench layout rev D"]', '2025-03-12 10:00:00', '2025-03-12 10:00:00'),
 ('p05-cmp-collimator', 'component', 'Collimator lens', 'p05-interferometer', 'f = 600 mm air-spaced doublet.', '{"subsystem":"Beam expander"}', 'active', 1.0, '["optical design v3"]', '2025-03-12 10:00:00', '2025-03-12 10:00:00'),
 ('p05-cmp-trans-flat', 'component', 'Transmission flat', 'p05-interferometer', 'Wedged, λ/20 reference surface.', '{"subsystem":"Reference optics"}', 'active', 1.0, '["Zygo quote 2025-06"]', '2025-06-02 10:00:00', '2025-06-02 10:00:00'),
 ('p05-cmp-ref-mirror', 'component', 'Reference mirror', 'p05-interferometer', '160 mm return flat for the cavity check.', '{"subsystem":"Reference optics"}', 'active', 1.0, '["optical design v3"]', '2025-03-12 10:00:00', '2025-03-12 10:00:00'),
 ('p05-cmp-piezo', 'component', 'Phase-shift piezo', 'p05-interferometer', 'Three-stack ring actuator under the transmission flat.', '{"subsystem":"Reference optics"}', 'active', 1.0, '["PI quote 2025-06"]', '2025-05-22 14:00:00', '2025-05-22 14:00:00'),
 ('p05-cmp-lateral', 'component', 'Lateral support', 'p05-interferometer', 'Two 45° pads carrying the test mirror edge.', '{"subsystem":"Mirror mount"}', 'active', 1.0, '["mount design rev C"]', '2025-03-24 10:00:00', '2025-03-24 10:00:00'),
 ('p05-cmp-axial', 'component', 'Axial support', 'p05-interferometer', 'Three-point whiffletree-free axial support.', '{"subsystem":"Mirror mount"}', 'active', 1.0, '["mount design rev C"]', '2025-03-24 10:00:00', '2025-03-24 10:00:00'),
 ('p05-cmp-cell', 'component', 'Mirror cell', 'p05-interferometer', 'Ring cell carrying the supports, kinematic to the plate.', '{"subsystem":"Mirror mount"}', 'active', 1.0, '["mount design rev C"]', '2025-03-24 10:00:00', '2025-03-24 10:00:00'),
 ('p05-cmp-camera', 'component', 'Camera head', 'p05-interferometer', '5 MP global-shutter camera on the imaging arm.', '{"subsystem":"Imaging"}', 'active', 1.0, '["camera datasheet"]', '2025-04-07 10:00:00', '2025-04-07 10:00:00'),
 ('p05-cmp-imaging-lens', 'component', 'Imaging lens', 'p05-interferometer', 'Relays the test surface onto the sensor.', '{"subsystem":"Imaging"}', 'active', 1.0, '["optical design v3"]', '2025-04-07 10:00:00', '2025-04-07 10:00:00'),
 ('p05-cmp-bench-plate', 'component', 'Bench plate', 'p05-interferometer', '1200 x 600 mm honeycomb breadboard.', '{"subsystem":"Metrology frame"}', 'active', 1.0, '["bench layout rev D"]', '2025-02-17 10:00:00', '2025-02-17 10:00:00'),
 ('p05-cmp-struts', 'component', 'Invar struts', 'p05-interferometer', 'Hold the reference optics at a fixed cavity length.', '{"subsystem":"Metrology frame"}', 'active', 1.0, '["bench layout rev D"]', '2025-07-14 10:00:00', '2025-07-14 10:00:00'),
 ('p05-cmp-panels', 'component', 'Enclosure panels', 'p05-interferometer', 'Removable panels with foam lining.', '{"subsystem":"Enclosure"}', 'active', 1.0, '["enclosure drawing"]', '2025-06-16 10:00:00', '2025-06-16 10:00:00'),
 -- p05: interfaces -------------------------------------------------------------
 ('p05-ifc-fibre', 'interface', 'Laser fibre coupling (FC/APC)', 'p05-interferometer', 'Polarisation-maintaining fibre from laser to spatial filter.', '{"connector":"FC/APC"}', 'active', 1.0, '["laser datasheet"]', '2025-03-12 10:00:00', '2025-03-12 10:00:00'),
 ('p05-ifc-gige', 'interface', 'Camera GigE Vision link', 'p05-interferometer', 'Image stream to the analysis PC.', '{"standard":"GigE Vision 2.0"}', 'active', 1.0, '["camera datasheet"]', '2025-04-07 10:00:00', '2025-04-07 10:00:00'),
 ('p05-ifc-piezo-drive', 'interface', 'Piezo drive', 'p05-interferometer', '0 to 150 V drive from the PI amplifier.', '{"voltage":"0-150 V"}', 'active', 1.0, '["PI quote 2025-06"]', '2025-05-22 14:00:00', '2025-05-22 14:00:00'),
 ('p05-ifc-kinematic', 'interface', 'Kinematic cell interface', 'p05-interferometer', 'Three balls in three grooves between mirror cell and bench plate.', '{"type":"Maxwell kinematic"}', 'active', 1.0, '["mount design rev C"]', '2025-03-24 10:00:00', '2025-03-24 10:00:00'),
 -- p05: requirements -------------------------------------------------------------
 ('p05-req-aperture', 'requirement', 'Clear aperture', 'p05-interferometer', 'Largest test optic measured in one shot.', '{"key":"aperture","value":"150","unit":"mm"}', 'active', 1.0, '["acceptance spec rev A"]', '2025-02-24 10:00:00', '2025-02-24 10:00:00'),
 ('p05-req-repeat', 'requirement', 'Measurement repeatability', 'p05-interferometer', 'RMS of ten repeated measurements of the same flat.', '{"key":"repeatability","value":"2","unit":"nm rms"}', 'active', 1.0, '["acceptance spec rev A"]', '2025-02-24 10:00:00', '2025-02-24 10:00:00'),
 ('p05-req-accuracy', 'requirement', 'Wavefront accuracy', 'p05-interferometer', 'Absolute accuracy after reference calibration.', '{"key":"wavefront accuracy","value":"λ/20","unit":"PV"}', 'active', 1.0, '["acceptance spec rev A"]', '2025-02-24 10:00:00', '2025-02-24 10:00:00'),
 -- SPEC 8 example: requirement "mass cap" 4.8 kg and requirement "heat
 -- flux cap" 20 W on the same component (Camera head). no conflict:
 -- different slots.
 ('p05-req-mass-cap', 'requirement', 'Camera head mass cap', 'p05-interferometer', 'The imaging arm is balanced for this mass.', '{"key":"mass cap","value":"4.8","unit":"kg","component":"Camera head"}', 'active', 1.0, '["imaging arm design"]', '2025-04-07 10:00:00', '2025-04-07 10:00:00'),
 ('p05-req-heat-cap', 'requirement', 'Camera head heat flux cap', 'p05-interferometer', 'Heat the camera may put into the enclosure.', '{"key":"heat flux cap","value":"20","unit":"W","component":"Camera head"}', 'active', 1.0, '["enclosure thermal budget"]', '2025-04-07 10:00:00', '2025-04-07 10:00:00'),
 ('p05-req-meas-time', 'requirement', 'Measurement time', 'p05-interferometer', 'From trigger to map, five phase steps.', '{"key":"measurement time","value":"10","unit":"s"}', 'active', 0.9, '["acceptance spec rev A"]', '2025-02-24 10:00:00', '2025-02-24 10:00:00'),
 -- gap: nothing satisfies the vibration requirement.
 ('p05-req-vibration', 'requirement', 'Vibration tolerance', 'p05-interferometer', 'Floor vibration the bench must tolerate while measuring.', '{"key":"vibration tolerance","value":"VC-C (12.5 µm/s)"}', 'active', 1.0, '["acceptance spec rev A"]', '2025-02-24 10:00:00', '2025-02-24 10:00:00'),
 -- p05: constraints --------------------------------------------------------------
 ('p05-con-flatness', 'constraint', 'Bench plate flatness', 'p05-interferometer', 'Over the full plate.', '{"target":"bench plate","kind":"flatness","value":"0.1","unit":"mm"}', 'active', 1.0, '["breadboard datasheet"]', '2025-02-17 10:00:00', '2025-02-17 10:00:00'),
 ('p05-con-enclosure-temp', 'constraint', 'Enclosure temperature stability', 'p05-interferometer', 'Needed for 2 nm rms repeatability.', '{"target":"enclosure","kind":"temperature stability","value":"0.1","unit":"K/h","valid_from":"2025-06-01 00:00:00"}', 'active', 1.0, '["thermal drift model"]', '2025-06-16 10:00:00', '2025-06-16 10:00:00'),
 ('p05-con-sag', 'constraint', 'Reference mirror self-weight sag', 'p05-interferometer', 'On its three-point support.', '{"target":"reference mirror","kind":"self-weight sag","value":"5","unit":"nm rms"}', 'active', 1.0, '["mount FEA report"]', '2025-07-14 10:00:00', '2025-07-14 10:00:00'),
 ('p05-con-piezo-voltage', 'constraint', 'Piezo drive voltage', 'p05-interferometer', 'Amplifier and actuator limit.', '{"target":"piezo","kind":"drive voltage","value":"150","unit":"V"}', 'active', 1.0, '["PI quote 2025-06"]', '2025-05-22 14:00:00', '2025-05-22 14:00:00'),
 -- p05: decisions ----------------------------------------------------------------
 -- SPEC 8 example: the decision entity of the lateral support material
 -- (project written as the alias 'interferometer'). CONFLICT 1: it
 -- contradicts state p05-st-lateral-support-material (GF-PTFE).
 ('p05-dec-lateral-material-peek', 'decision', 'Lateral support material: PEEK', 'interferometer', 'PEEK pads: stiffer and less creep than GF-PTFE under the 45° load.', '{"target":"lateral support","field":"material","value":"PEEK"}', 'active', 0.8, '["mount FEA report","meeting 2026-01-19"]', '2026-01-19 15:00:00', '2026-01-19 15:00:00'),
 -- SPEC 8 example: superseded decision X (stepper micrometer), then active
 -- decision Y (piezo stack) on the same slot (phase shifter, actuator).
 -- no conflict; the decision log shows X then Y.
 ('p05-dec-phase-actuator-stepper', 'decision', 'Phase shifter actuator: stepper micrometer', 'p05-interferometer', 'Cheap and slow; enough for a static bench.', '{"target":"phase shifter","field":"actuator","value":"stepper micrometer"}', 'superseded', 1.0, '["concept review 2025-02-17"]', '2025-02-17 14:00:00', '2025-05-22 14:00:00'),
 ('p05-dec-phase-actuator-piezo', 'decision', 'Phase shifter actuator: piezo stack', 'p05-interferometer', 'Five phase steps in under 10 s need a piezo.', '{"target":"phase shifter","field":"actuator","value":"piezo stack"}', 'active', 1.0, '["design review 2025-05-22"]', '2025-05-22 14:00:00', '2025-05-22 14:00:00'),
 ('p05-dec-config-fizeau', 'decision', 'Reference optics: Fizeau', 'p05-interferometer', 'Common-path cavity, insensitive to bench vibration.', '{"target":"reference optics","field":"configuration","value":"Fizeau"}', 'active', 1.0, '["concept review 2025-02-17"]', '2025-02-17 14:00:00', '2025-02-17 14:00:00'),
 ('p05-dec-camera-sensor', 'decision', 'Camera sensor: global-shutter CMOS', 'p05-interferometer', 'No rolling-shutter artefacts during phase steps.', '{"target":"camera head","field":"sensor","value":"global-shutter CMOS"}', 'active', 1.0, '["design review 2025-05-22"]', '2025-05-22 14:00:00', '2025-05-22 14:00:00'),
 ('p05-dec-algorithm', 'decision', 'Phase retrieval: Hariharan 5-step', 'p05-interferometer', 'Tolerant to phase-step calibration error.', '{"target":"phase retrieval","field":"algorithm","value":"Hariharan 5-step"}', 'active', 1.0, '["analysis notes"]', '2025-10-06 09:00:00', '2025-10-06 09:00:00'),
 ('p05-dec-enclosure-cooling', 'decision', 'Enclosure cooling: passive', 'p05-interferometer', 'Proposed: no fans inside the enclosure.', '{"target":"enclosure","field":"cooling","value":"passive"}', 'candidate', 0.6, '["meeting 2026-02-02"]', '2026-02-02 15:00:00', '2026-02-02 15:00:00'),
 -- p05: materials ----------------------------------------------------------------
 ('p05-mat-pinhole', 'material', 'Molybdenum foil', 'p05-interferometer', 'Laser-drilled pinhole.', '{"component":"Spatial filter"}', 'active', 1.0, '["pinhole datasheet"]', '2025-03-12 10:00:00', '2025-03-12 10:00:00'),
 ('p05-mat-collimator', 'material', 'N-BK7', 'p05-interferometer', 'Crown element of the doublet.', '{"component":"Collimator lens"}', 'active', 1.0, '["optical design v3"]', '2025-03-12 10:00:00', '2025-03-12 10:00:00'),
 ('p05-mat-trans-flat', 'material', 'Fused silica (Corning 7980)', 'p05-interferometer', 'Grade 0F.', '{"component":"Transmission flat"}', 'active', 1.0, '["Zygo quote 2025-06"]', '2025-06-02 10:00:00', '2025-06-02 10:00:00'),
 ('p05-mat-ref-mirror', 'material', 'Zerodur class 0', 'p05-interferometer', 'Near-zero expansion substrate.', '{"component":"Reference mirror"}', 'active', 1.0, '["Schott quote"]', '2025-03-12 10:00:00', '2025-03-12 10:00:00'),
 ('p05-mat-piezo', 'material', 'PZT ceramic PIC151', 'p05-interferometer', 'Soft PZT, high stroke.', '{"component":"Phase-shift piezo"}', 'active', 1.0, '["PI quote 2025-06"]', '2025-05-22 14:00:00', '2025-05-22 14:00:00'),
 ('p05-mat-axial', 'material', 'POM-H (Delrin 150)', 'p05-interferometer', 'Axial pads.', '{"component":"Axial support"}', 'active', 1.0, '["mount design rev C"]', '2025-03-24 10:00:00', '2025-03-24 10:00:00'),
 -- no conflict: the Mirror cell uses the active aluminium and the
 -- superseded stainless steel (history, replaced by aluminium).
 ('p05-mat-cell-steel', 'material', 'Stainless steel 316L', 'p05-interferometer', 'First cell design; too heavy for the imaging arm balance.', '{"component":"Mirror cell"}', 'superseded', 1.0, '["mount design rev A"]', '2025-03-24 10:00:00', '2025-07-14 10:00:00'),
 ('p05-mat-cell-alu', 'material', 'Aluminium 6061-T6', 'p05-interferometer', 'Stress-relieved before final machining.', '{"component":"Mirror cell"}', 'active', 1.0, '["mount design rev C"]', '2025-07-14 10:00:00', '2025-07-14 10:00:00'),
 ('p05-mat-imaging-lens', 'material', 'N-BAF10', 'p05-interferometer', 'Imaging doublet crown.', '{"component":"Imaging lens"}', 'active', 1.0, '["optical design v3"]', '2025-04-07 10:00:00', '2025-04-07 10:00:00'),
 ('p05-mat-bench-plate', 'material', 'Ferritic stainless steel 430', 'p05-interferometer', 'Magnetic top skin for magnetic bases.', '{"component":"Bench plate"}', 'active', 1.0, '["breadboard datasheet"]', '2025-02-17 10:00:00', '2025-02-17 10:00:00'),
 ('p05-mat-struts', 'material', 'Invar 36', 'p05-interferometer', 'CTE 1.2 ppm/K.', '{"component":"Invar struts"}', 'active', 1.0, '["bench layout rev D"]', '2025-07-14 10:00:00', '2025-07-14 10:00:00'),
 ('p05-mat-panels', 'material', 'Polycarbonate with PE foam lining', 'p05-interferometer', 'Light, insulating, easy to remove.', '{"component":"Enclosure panels"}', 'active', 1.0, '["enclosure drawing"]', '2025-06-16 10:00:00', '2025-06-16 10:00:00'),
 -- p05: parameters ---------------------------------------------------------------
 -- SPEC 8 example: parameter 4.8 kg vs 4.82 kg on the same slot
 -- (reference mirror, mass). CONFLICT 5.
 ('p05-par-mirror-mass-cad', 'parameter', 'mass', 'p05-interferometer', 'From the CAD model.', '{"scope":"reference mirror","value":"4.8","unit":"kg"}', 'active', 0.9, '["CAD model rev C"]', '2025-07-14 10:00:00', '2025-07-14 10:00:00'),
 ('p05-par-mirror-mass-weighed', 'parameter', 'mass', 'p05-interferometer', 'Weighed on delivery, without packaging.', '{"scope":"reference mirror","value":"4.82","unit":"kg"}', 'active', 1.0, '["goods-in record 2025-12-01"]', '2025-12-01 10:00:00', '2025-12-01 10:00:00'),
 ('p05-par-wavelength', 'parameter', 'wavelength', 'p05-interferometer', 'Vacuum wavelength of the stabilised HeNe.', '{"scope":"laser","value":"632.8","unit":"nm"}', 'active', 1.0, '["laser datasheet"]', '2025-03-12 10:00:00', '2025-03-12 10:00:00'),
 ('p05-par-coherence', 'parameter', 'coherence length', 'p05-interferometer', 'Longer than any cavity on the bench.', '{"scope":"laser","value":"20","unit":"m"}', 'active', 0.8, '["laser datasheet"]', '2025-03-12 10:00:00', '2025-03-12 10:00:00'),
 ('p05-par-piezo-stroke', 'parameter', 'stroke', 'p05-interferometer', 'Closed-loop stroke.', '{"scope":"phase-shift piezo","value":15,"unit":"µm"}', 'active', 1.0, '["PI quote 2025-06"]', '2025-05-22 14:00:00', '2025-05-22 14:00:00'),
 ('p05-par-pixel-pitch', 'parameter', 'pixel pitch', 'p05-interferometer', 'Sensor pixel pitch.', '{"scope":"camera head","value":"3.45","unit":"µm"}', 'active', 1.0, '["camera datasheet"]', '2025-04-07 10:00:00', '2025-04-07 10:00:00'),
 ('p05-par-focal-length', 'parameter', 'focal length', 'p05-interferometer', 'Effective focal length of the collimator.', '{"scope":"collimator lens","value":"600","unit":"mm"}', 'active', 1.0, '["optical design v3"]', '2025-03-12 10:00:00', '2025-03-12 10:00:00'),
 -- p05: analysis -----------------------------------------------------------------
 ('p05-am-modal', 'analysis_model', 'Bench modal FEA', 'p05-interferometer', 'Free-free modes of plate, struts and reference optics.', '{"subsystem":"Metrology frame","method":"modal analysis","solver":"CalculiX 2.21"}', 'active', 1.0, '["bench FEA notes"]', '2025-07-14 10:00:00', '2025-07-14 10:00:00'),
 ('p05-am-mount', 'analysis_model', 'Mount deformation FEA', 'p05-interferometer', 'Test mirror on axial and lateral supports under gravity.', '{"subsystem":"Mirror mount","method":"static FEA with gravity","solver":"CalculiX 2.21"}', 'active', 1.0, '["mount FEA report"]', '2025-10-20 10:00:00', '2025-10-20 10:00:00'),
 ('p05-am-thermal', 'analysis_model', 'Thermal drift model', 'p05-interferometer', 'Cavity length drift from enclosure temperature.', '{"subsystem":"Enclosure","method":"lumped thermal network","solver":"Python/SciPy"}', 'active', 1.0, '["thermal drift notes"]', '2025-06-16 10:00:00', '2025-06-16 10:00:00'),
 -- CONFLICT 10: two active results on (Bench modal FEA, first mode
 -- frequency): 142 Hz (before the struts) and 138 Hz (with them).
 ('p05-res-mode1-a', 'result', 'Bench first mode (run 1)', 'p05-interferometer', 'Run of 2025-07-14.', '{"model":"Bench modal FEA","key":"first mode frequency","value":"142","unit":"Hz"}', 'active', 1.0, '["bench FEA notes"]', '2025-07-14 10:00:00', '2025-07-14 10:00:00'),
 ('p05-res-mode1-b', 'result', 'Bench first mode (run 2)', 'p05-interferometer', 'Run of 2025-11-10 with the Invar struts modelled.', '{"model":"Bench modal FEA","key":"first mode frequency","value":"138","unit":"Hz"}', 'active', 1.0, '["bench FEA notes"]', '2025-11-10 10:00:00', '2025-11-10 10:00:00'),
 ('p05-res-surface', 'result', 'Mount-induced surface error', 'p05-interferometer', 'With PEEK lateral pads.', '{"model":"Mount deformation FEA","key":"surface error","value":"6.3","unit":"nm rms"}', 'active', 1.0, '["mount FEA report"]', '2025-10-20 10:00:00', '2025-10-20 10:00:00'),
 -- CHECK result-before-model: a preliminary number recorded 2025-09-15,
 -- before its model p05-am-mount (2025-10-20) was.
 ('p05-res-surface-prelim', 'result', 'Mount-induced surface error (preliminary)', 'p05-interferometer', 'Hand estimate before the FEA.', '{"model":"Mount deformation FEA","key":"surface error (hand estimate)","value":"5","unit":"nm rms"}', 'active', 0.6, '["mount notes 2025-09"]', '2025-09-15 10:00:00', '2025-09-15 10:00:00'),
 ('p05-res-drift', 'result', 'Cavity drift per hour', 'p05-interferometer', 'At 0.1 K/h enclosure stability.', '{"model":"Thermal drift model","key":"drift per hour","value":"3","unit":"nm"}', 'active', 1.0, '["thermal drift notes"]', '2025-06-16 10:00:00', '2025-06-16 10:00:00'),
 -- CONFLICT 12: two active claims on (wavefront repeatability test): pass vs fail.
 ('p05-vc-repeat-pass', 'validation_claim', 'Repeatability test, enclosure closed', 'p05-interferometer', '1.6 nm rms over ten runs.', '{"key":"wavefront repeatability test","verdict":"pass"}', 'active', 1.0, '["repeatability report 2026-01"]', '2026-01-26 10:00:00', '2026-01-26 10:00:00'),
 ('p05-vc-repeat-fail', 'validation_claim', 'Repeatability test, enclosure open', 'p05-interferometer', '3.4 nm rms over ten runs with two panels removed.', '{"key":"wavefront repeatability test","verdict":"fail"}', 'active', 0.9, '["lab log 2026-02-09"]', '2026-02-09 10:00:00', '2026-02-09 10:00:00'),
 ('p05-vc-first-mode', 'validation_claim', 'Bench first mode above 100 Hz', 'p05-interferometer', 'Keeps the bench clear of floor excitation.', '{"key":"bench first mode","verdict":"pass"}', 'active', 1.0, '["bench FEA notes"]', '2025-11-10 10:00:00', '2025-11-10 10:00:00'),
 -- gap: nothing supports this claim.
 ('p05-vc-accuracy', 'validation_claim', 'Accuracy against the calibrated flat', 'p05-interferometer', 'Three-flat test still to be done.', '{"key":"accuracy vs reference flat","verdict":"pending"}', 'active', 1.0, '["test plan"]', '2026-01-26 10:00:00', '2026-01-26 10:00:00'),
 -- p05: vendors, processes, artifacts -------------------------------------------
 ('p05-ven-zygo', 'vendor', 'Zygo', 'p05-interferometer', 'Transmission flat.', '{}', 'active', 1.0, '[]', '2025-06-02 10:00:00', '2025-06-02 10:00:00'),
 ('p05-ven-schott', 'vendor', 'Schott', 'p05-interferometer', 'Zerodur and N-BK7 blanks.', '{}', 'active', 1.0, '[]', '2025-03-12 10:00:00', '2025-03-12 10:00:00'),
 ('p05-ven-pi', 'vendor', 'Physik Instrumente (PI)', 'p05-interferometer', 'Piezo ring actuators and amplifier.', '{}', 'active', 1.0, '[]', '2025-05-22 14:00:00', '2025-05-22 14:00:00'),
 ('p05-ven-thorlabs', 'vendor', 'Thorlabs', 'p05-interferometer', 'Breadboard, spatial filter parts.', '{}', 'active', 1.0, '[]', '2025-02-17 10:00:00', '2025-02-17 10:00:00'),
 ('p05-proc-pad-bonding', 'process', 'Lateral pad bonding', 'p05-interferometer', 'Plasma clean, Araldite 2011, 24 h cure at 23 °C under a 2 kg weight.', '{}', 'active', 1.0, '["assembly notes"]', '2025-11-17 10:00:00', '2025-11-17 10:00:00'),
 ('p05-proc-alignment', 'process', 'Bench alignment', 'p05-interferometer', 'Autocollimation of the transmission flat, then null the cavity.', '{}', 'active', 1.0, '["alignment procedure rev 2"]', '2025-08-25 09:00:00', '2025-08-25 09:00:00'),
 ('p05-proc-unwrap', 'process', 'Phase unwrapping (Goldstein)', 'p05-interferometer', 'Branch-cut unwrapping before the Zernike fit.', '{}', 'active', 1.0, '["analysis notes"]', '2025-10-06 09:00:00', '2025-10-06 09:00:00'),
 ('p05-art-layout', 'artifact', 'Bench layout drawing rev D', 'p05-interferometer', 'Top view with beam paths.', '{"path":"drawings/p05-bench-revD.pdf"}', 'active', 1.0, '[]', '2025-07-14 10:00:00', '2025-07-14 10:00:00'),
 ('p05-art-repeat-report', 'artifact', 'Repeatability report 2026-01', 'p05-interferometer', 'Ten runs, enclosure closed.', '{"path":"reports/p05-repeatability-2026-01.pdf"}', 'active', 1.0, '[]', '2026-01-26 10:00:00', '2026-01-26 10:00:00'),
 ('p05-art-fea-report', 'artifact', 'Mount FEA report', 'p05-interferometer', 'Lateral pad material study, GF-PTFE against PEEK.', '{"path":"reports/p05-mount-fea.pdf"}', 'active', 1.0, '[]', '2025-10-20 10:00:00', '2025-10-20 10:00:00'),
 ('p05-art-lab-log', 'artifact', 'Lab log 2026-02-09', 'p05-interferometer', 'Repeatability runs with two enclosure panels removed.', '{"path":"logs/p05-2026-02-09.md"}', 'active', 1.0, '[]', '2026-02-09 10:00:00', '2026-02-09 10:00:00'),
 ('p05-art-session', 'artifact', 'Working session 2026-01-19', 'p05-interferometer', 'Session notes where the PEEK proposal came up.', '{"path":"sessions/p05-2026-01-19.md"}', 'active', 1.0, '[]', '2026-01-19 15:00:00', '2026-01-19 15:00:00'),

 -- p06: structure ------------------------------------------------------------
 ('p06-prj', 'project', 'P06 Polisher', 'p06-polisher', 'CNC polishing machine for optics up to 300 mm.', '{}', 'active', 1.0, '["project charter"]', '2025-03-10 09:00:00', '2025-03-10 09:00:00'),
 ('p06-sys-machine', 'system', 'Polishing machine', 'p06-polisher', 'Base, spindle head, workpiece table, stroke arm, slurry system and control.', '{}', 'active', 1.0, '["machine frame drawing rev A"]', '2025-03-24 10:00:00', '2025-03-24 10:00:00'),
 ('p06-sub-base', 'subsystem', 'Machine base', 'p06-polisher', 'Granite on a welded frame.', '{}', 'active', 1.0, '["machine frame drawing rev A"]', '2025-03-24 10:00:00', '2025-03-24 10:00:00'),
 ('p06-sub-spindle', 'subsystem', 'Spindle head', 'p06-polisher', 'Tool spindle with the polishing head and pad.', '{}', 'active', 1.0, '["machine frame drawing rev A"]', '2025-03-24 10:00:00', '2025-03-24 10:00:00'),
 ('p06-sub-table', 'subsystem', 'Workpiece table', 'p06-polisher', 'Rotary table with vacuum chuck.', '{}', 'active', 1.0, '["machine frame drawing rev A"]', '2025-03-24 10:00:00', '2025-03-24 10:00:00'),
 ('p06-sub-arm', 'subsystem', 'Stroke arm', 'p06-polisher', 'Linear stroke of the head across the workpiece.', '{}', 'active', 1.0, '["machine frame drawing rev A"]', '2025-03-24 10:00:00', '2025-03-24 10:00:00'),
 ('p06-sub-slurry', 'subsystem', 'Slurry system', 'p06-polisher', 'Tank, pump, feed line and splash guard.', '{}', 'active', 1.0, '["P&ID rev 1"]', '2025-03-24 10:00:00', '2025-03-24 10:00:00'),
 ('p06-sub-control', 'subsystem', 'Control', 'p06-polisher', 'Motion controller and safety chain.', '{}', 'active', 1.0, '["electrical drawing"]', '2025-03-24 10:00:00', '2025-03-24 10:00:00'),
 -- components without a material entity (gaps): p06-cmp-spindle-motor,
 -- p06-cmp-linear-axis, p06-cmp-controller.
 ('p06-cmp-granite', 'component', 'Granite base', 'p06-polisher', '1600 x 1000 x 250 mm lapped granite block.', '{"subsystem":"Machine base"}', 'active', 1.0, '["granite quote"]', '2025-03-24 10:00:00', '2025-03-24 10:00:00'),
 ('p06-cmp-frame', 'component', 'Welded frame', 'p06-polisher', 'Levelling frame under the granite.', '{"subsystem":"Machine base"}', 'active', 1.0, '["machine frame drawing rev A"]', '2025-03-24 10:00:00', '2025-03-24 10:00:00'),
 ('p06-cmp-spindle-motor', 'component', 'Spindle motor', 'p06-polisher', 'Servo motor with EtherCAT drive.', '{"subsystem":"Spindle head"}', 'active', 1.0, '["drive sizing"]', '2025-04-14 10:00:00', '2025-04-14 10:00:00'),
 ('p06-cmp-spindle-housing', 'component', 'Spindle housing', 'p06-polisher', 'Carries the spindle bearings.', '{"subsystem":"Spindle head"}', 'active', 1.0, '["spindle drawing"]', '2025-04-14 10:00:00', '2025-04-14 10:00:00'),
 ('p06-cmp-head', 'component', 'Polishing head', 'p06-polisher', 'Gimballed head carrying the pad.', '{"subsystem":"Spindle head"}', 'active', 1.0, '["head drawing"]', '2025-04-14 10:00:00', '2025-04-14 10:00:00'),
 ('p06-cmp-pad', 'component', 'Polishing pad', 'p06-polisher', '150 mm pad or pitch lap on the head.', '{"subsystem":"Spindle head"}', 'active', 1.0, '["process notes"]', '2025-04-14 10:00:00', '2025-04-14 10:00:00'),
 ('p06-cmp-rotary', 'component', 'Rotary table', 'p06-polisher', 'Direct-drive rotary table, 400 mm.', '{"subsystem":"Workpiece table"}', 'active', 1.0, '["table datasheet"]', '2025-04-14 10:00:00', '2025-04-14 10:00:00'),
 ('p06-cmp-chuck', 'component', 'Vacuum chuck', 'p06-polisher', 'Porous ceramic chuck for flats.', '{"subsystem":"Workpiece table"}', 'active', 1.0, '["chuck quote"]', '2025-04-14 10:00:00', '2025-04-14 10:00:00'),
 ('p06-cmp-linear-axis', 'component', 'Linear axis', 'p06-polisher', 'Linear motor axis driving the stroke.', '{"subsystem":"Stroke arm"}', 'active', 1.0, '["drive sizing"]', '2025-06-03 11:00:00', '2025-06-03 11:00:00'),
 ('p06-cmp-load-cell', 'component', 'Load cell', 'p06-polisher', 'Measures polishing force on the head.', '{"subsystem":"Stroke arm"}', 'active', 1.0, '["Kistler quote"]', '2025-06-03 11:00:00', '2025-06-03 11:00:00'),
 ('p06-cmp-pump', 'component', 'Slurry pump', 'p06-polisher', 'Peristaltic pump with speed control.', '{"subsystem":"Slurry system"}', 'active', 1.0, '["P&ID rev 1"]', '2025-07-08 11:00:00', '2025-07-08 11:00:00'),
 ('p06-cmp-tank', 'component', 'Slurry tank', 'p06-polisher', '20 L stirred tank.', '{"subsystem":"Slurry system"}', 'active', 1.0, '["P&ID rev 1"]', '2025-07-08 11:00:00', '2025-07-08 11:00:00'),
 ('p06-cmp-splash', 'component', 'Splash guard', 'p06-polisher', 'Bowl around the table.', '{"subsystem":"Slurry system"}', 'active', 1.0, '["machine frame drawing rev A"]', '2025-07-08 11:00:00', '2025-07-08 11:00:00'),
 ('p06-cmp-controller', 'component', 'Motion controller', 'p06-polisher', 'Industrial PC running TwinCAT.', '{"subsystem":"Control"}', 'active', 1.0, '["electrical drawing"]', '2025-06-03 11:00:00', '2025-06-03 11:00:00'),
 -- p06: interfaces -------------------------------------------------------------
 ('p06-ifc-ethercat', 'interface', 'EtherCAT fieldbus', 'p06-polisher', 'Controller to spindle drive, linear axis and I/O.', '{"standard":"EtherCAT"}', 'active', 1.0, '["electrical drawing"]', '2025-06-03 11:00:00', '2025-06-03 11:00:00'),
 ('p06-ifc-head-flange', 'interface', 'Head quick-change flange', 'p06-polisher', 'Swaps pad and pitch heads in one minute.', '{}', 'active', 1.0, '["head drawing"]', '2025-04-14 10:00:00', '2025-04-14 10:00:00'),
 ('p06-ifc-slurry-line', 'interface', 'Slurry feed line', 'p06-polisher', '6 mm PTFE tube from pump to head nozzle.', '{"tube":"PTFE 6 x 4 mm"}', 'active', 1.0, '["P&ID rev 1"]', '2025-07-08 11:00:00', '2025-07-08 11:00:00'),
 ('p06-ifc-safety', 'interface', 'Safety interlock chain', 'p06-polisher', 'Door switches and e-stop to safe torque off.', '{"performance_level":"PL d"}', 'active', 1.0, '["risk assessment rev 2"]', '2026-04-20 16:00:00', '2026-04-20 16:00:00'),
 -- p06: requirements -------------------------------------------------------------
 ('p06-req-figure', 'requirement', 'Surface figure', 'p06-polisher', 'On a 200 mm flat after one run.', '{"key":"surface figure","value":"λ/10","unit":"PV"}', 'active', 1.0, '["requirements spec rev A"]', '2025-04-14 10:00:00', '2025-04-14 10:00:00'),
 ('p06-req-diameter', 'requirement', 'Max workpiece diameter', 'p06-polisher', 'Largest optic the table takes.', '{"key":"max workpiece diameter","value":"300","unit":"mm"}', 'active', 1.0, '["requirements spec rev A"]', '2025-04-14 10:00:00', '2025-04-14 10:00:00'),
 ('p06-req-wp-mass', 'requirement', 'Max workpiece mass', 'p06-polisher', 'Including the blocking tool.', '{"key":"max workpiece mass","value":"15","unit":"kg"}', 'active', 1.0, '["requirements spec rev A"]', '2025-04-14 10:00:00', '2025-04-14 10:00:00'),
 ('p06-req-removal', 'requirement', 'Removal rate', 'p06-polisher', 'Average removal on fused silica with ceria.', '{"key":"removal rate","value":"0.5","unit":"µm/h"}', 'active', 0.9, '["requirements spec rev A"]', '2025-04-14 10:00:00', '2025-04-14 10:00:00'),
 ('p06-req-roughness', 'requirement', 'Surface roughness', 'p06-polisher', 'Measured with a white-light profiler.', '{"key":"surface roughness","value":"1","unit":"nm Ra"}', 'active', 1.0, '["requirements spec rev A"]', '2025-04-14 10:00:00', '2025-04-14 10:00:00'),
 -- gap: nothing satisfies the noise requirement.
 ('p06-req-noise', 'requirement', 'Noise level', 'p06-polisher', 'At the operator position.', '{"key":"noise level","value":"70","unit":"dB(A)"}', 'active', 1.0, '["risk assessment rev 2"]', '2026-04-20 16:00:00', '2026-04-20 16:00:00'),
 ('p06-req-speed-range', 'requirement', 'Spindle speed range', 'p06-polisher', 'Entered against the wrong machine.', '{"key":"spindle speed range","value":"0-6000","unit":"rpm"}', 'invalid', 0.2, '["import 2025-04"]', '2025-04-14 10:00:00', '2025-04-28 10:00:00'),
 -- p06: constraints --------------------------------------------------------------
 ('p06-con-pressure', 'constraint', 'Polishing pressure limit', 'p06-polisher', 'Above this the pitch flows.', '{"target":"polishing head","kind":"pressure","value":"3.5","unit":"kPa"}', 'active', 1.0, '["process notes"]', '2025-07-08 11:00:00', '2025-07-08 11:00:00'),
 ('p06-con-footprint', 'constraint', 'Machine footprint', 'p06-polisher', 'Space left in hall 3.', '{"target":"machine","kind":"footprint","value":"1.8","unit":"m²"}', 'active', 1.0, '["facilities"]', '2025-03-24 10:00:00', '2025-03-24 10:00:00'),
 -- no conflict: two active spindle power limits whose validity windows do
 -- not overlap (2.2 kW during 2025, 3.0 kW from 2026 on a new supply).
 ('p06-con-power-2025', 'constraint', 'Spindle power limit (2025 supply)', 'p06-polisher', 'Temporary 16 A supply in hall 3.', '{"target":"spindle","kind":"power limit","value":"2.2","unit":"kW","valid_from":"2025-01-01 00:00:00","valid_until":"2025-12-31 23:59:59"}', 'active', 1.0, '["facilities"]', '2025-04-14 10:00:00', '2025-04-14 10:00:00'),
 ('p06-con-power-2026', 'constraint', 'Spindle power limit (2026 supply)', 'p06-polisher', '32 A supply installed over the new-year shutdown.', '{"target":"spindle","kind":"power limit","value":"3.0","unit":"kW","valid_from":"2026-01-01 00:00:00"}', 'active', 1.0, '["facilities"]', '2025-12-15 10:00:00', '2025-12-15 10:00:00'),
 ('p06-con-ph', 'constraint', 'Slurry pH range', 'p06-polisher', 'Keeps ceria dispersed.', '{"target":"slurry","kind":"pH range","value":"7 to 9"}', 'active', 1.0, '["process notes"]', '2025-07-08 11:00:00', '2025-07-08 11:00:00'),
 -- p06: decisions ----------------------------------------------------------------
 -- no conflict: superseded zirconia, then active ceria; the state agrees.
 ('p06-dec-abrasive-zirconia', 'decision', 'Slurry abrasive: zirconium oxide', 'p06-polisher', 'Tried first for glass-ceramics.', '{"target":"slurry","field":"abrasive","value":"zirconium oxide"}', 'superseded', 1.0, '["process review 2025-04-28"]', '2025-04-28 11:00:00', '2025-07-08 11:00:00'),
 ('p06-dec-abrasive-ceria', 'decision', 'Slurry abrasive: cerium oxide', 'p06-polisher', 'Faster on fused silica, standard for the lab.', '{"target":"slurry","field":"abrasive","value":"cerium oxide"}', 'active', 1.0, '["process review 2025-07-08"]', '2025-07-08 11:00:00', '2025-07-08 11:00:00'),
 -- CONFLICT 13: two active decisions on (polishing head, pressure control).
 ('p06-dec-pressure-deadweight', 'decision', 'Pressure control: dead weight', 'p06-polisher', 'Classic and stable; weights on the head.', '{"target":"polishing head","field":"pressure control","value":"dead weight"}', 'active', 0.9, '["process review 2025-07-08"]', '2025-07-08 11:00:00', '2025-07-08 11:00:00'),
 ('p06-dec-pressure-bellows', 'decision', 'Pressure control: pneumatic bellows', 'p06-polisher', 'Closed loop on the load cell; pressure can vary over the stroke.', '{"target":"polishing head","field":"pressure control","value":"pneumatic bellows"}', 'active', 0.9, '["design review 2026-03-09"]', '2026-03-09 11:00:00', '2026-03-09 11:00:00'),
 -- no conflict: superseded ball screw, then active linear motor; state agrees.
 ('p06-dec-arm-drive-screw', 'decision', 'Stroke arm drive: ball screw', 'p06-polisher', 'Cheap, but reversal marks at 2 Hz stroke.', '{"target":"stroke arm","field":"drive","value":"ball screw"}', 'superseded', 1.0, '["concept review 2025-03-24"]', '2025-03-24 10:00:00', '2025-06-03 11:00:00'),
 ('p06-dec-arm-drive-linear', 'decision', 'Stroke arm drive: linear motor', 'p06-polisher', 'No backlash at the stroke reversal.', '{"target":"stroke arm","field":"drive","value":"linear motor"}', 'active', 1.0, '["design review 2025-06-03"]', '2025-06-03 11:00:00', '2025-06-03 11:00:00'),
 ('p06-dec-platform', 'decision', 'Control platform: Beckhoff TwinCAT 3', 'p06-polisher', 'Same platform as the lab''s grinding machine.', '{"target":"control","field":"platform","value":"Beckhoff TwinCAT 3"}', 'active', 1.0, '["concept review 2025-03-24"]', '2025-03-24 10:00:00', '2025-03-24 10:00:00'),
 -- CHECK decision-outside-window: decided 2026-02-10 (its "date"), it names
 -- the 2025 supply limit p06-con-power-2025, valid until 2025-12-31.
 ('p06-dec-spindle-derate', 'decision', 'Spindle derating: 2.2 kW', 'p06-polisher', 'Run the spindle at the old supply limit until the motor is re-rated.', '{"target":"spindle","field":"derating","value":"2.2 kW","date":"2026-02-10"}', 'active', 0.8, '["commissioning meeting 2026-02-10"]', '2026-02-12 10:00:00', '2026-02-12 10:00:00'),
 -- p06: materials ----------------------------------------------------------------
 ('p06-mat-granite', 'material', 'Black granite (Nero Assoluto)', 'p06-polisher', 'Lapped to 5 µm.', '{"component":"Granite base"}', 'active', 1.0, '["granite quote"]', '2025-03-24 10:00:00', '2025-03-24 10:00:00'),
 ('p06-mat-frame', 'material', 'Structural steel S355', 'p06-polisher', 'Welded and stress-relieved.', '{"component":"Welded frame"}', 'active', 1.0, '["machine frame drawing rev A"]', '2025-03-24 10:00:00', '2025-03-24 10:00:00'),
 ('p06-mat-spindle-housing', 'material', 'Grey cast iron EN-GJL-250', 'p06-polisher', 'Damps spindle vibration.', '{"component":"Spindle housing"}', 'active', 1.0, '["spindle drawing"]', '2025-04-14 10:00:00', '2025-04-14 10:00:00'),
 ('p06-mat-head', 'material', 'Stainless steel 1.4301', 'p06-polisher', 'Slurry-resistant.', '{"component":"Polishing head"}', 'active', 1.0, '["head drawing"]', '2025-04-14 10:00:00', '2025-04-14 10:00:00'),
 -- CONFLICT 9: two active materials for the Polishing pad (and the pad
 -- uses_material both): polyurethane vs pitch.
 ('p06-mat-pad-pu', 'material', 'Polyurethane pad (IC1000)', 'p06-polisher', 'Fast removal, for pre-polish.', '{"component":"Polishing pad"}', 'active', 0.9, '["process notes"]', '2025-07-08 11:00:00', '2025-07-08 11:00:00'),
 ('p06-mat-pad-pitch', 'material', 'Optical pitch (Gugolz 73)', 'p06-polisher', 'Best figure on fused silica.', '{"component":"Polishing pad"}', 'active', 0.9, '["process review 2026-03-09"]', '2026-03-09 11:00:00', '2026-03-09 11:00:00'),
 ('p06-mat-rotary', 'material', 'Aluminium 6082-T6', 'p06-polisher', 'Table top, hard anodised.', '{"component":"Rotary table"}', 'active', 1.0, '["table datasheet"]', '2025-04-14 10:00:00', '2025-04-14 10:00:00'),
 ('p06-mat-chuck', 'material', 'Porous alumina ceramic', 'p06-polisher', 'Even vacuum over the whole face.', '{"component":"Vacuum chuck"}', 'active', 1.0, '["chuck quote"]', '2025-04-14 10:00:00', '2025-04-14 10:00:00'),
 ('p06-mat-load-cell', 'material', 'Stainless steel 17-4PH', 'p06-polisher', 'Load cell body.', '{"component":"Load cell"}', 'active', 1.0, '["Kistler quote"]', '2025-06-03 11:00:00', '2025-06-03 11:00:00'),
 ('p06-mat-pump', 'material', 'PVDF', 'p06-polisher', 'Wetted parts of the pump head.', '{"component":"Slurry pump"}', 'active', 1.0, '["pump datasheet"]', '2025-07-08 11:00:00', '2025-07-08 11:00:00'),
 ('p06-mat-tank', 'material', 'Polypropylene', 'p06-polisher', 'Tank and lid.', '{"component":"Slurry tank"}', 'active', 1.0, '["P&ID rev 1"]', '2025-07-08 11:00:00', '2025-07-08 11:00:00'),
 ('p06-mat-splash', 'material', 'Stainless steel 1.4404', 'p06-polisher', 'Deep-drawn bowl.', '{"component":"Splash guard"}', 'active', 1.0, '["machine frame drawing rev A"]', '2025-07-08 11:00:00', '2025-07-08 11:00:00'),
 -- p06: parameters ---------------------------------------------------------------
 -- SPEC 8 example: parameter 4.8 kg vs 4.80 kg on the same slot
 -- (polishing head, mass). no conflict: equal as numbers with their unit.
 ('p06-par-head-mass-datasheet', 'parameter', 'mass', 'p06-polisher', 'From the head drawing.', '{"scope":"polishing head","value":"4.8","unit":"kg"}', 'active', 1.0, '["head drawing"]', '2025-04-14 10:00:00', '2025-04-14 10:00:00'),
 ('p06-par-head-mass-measured', 'parameter', 'mass', 'p06-polisher', 'Weighed after assembly.', '{"scope":"polishing head","value":"4.80","unit":"kg"}', 'active', 1.0, '["assembly record 2026-02-09"]', '2026-02-09 10:00:00', '2026-02-09 10:00:00'),
 -- CONFLICT 6 (three layers): 350 rpm against state 300 rpm.
 ('p06-par-spindle-max', 'parameter', 'max speed', 'p06-polisher', 'Drive parameter P-0-0113 as commissioned.', '{"scope":"spindle","value":"350","unit":"rpm"}', 'active', 0.9, '["commissioning log 2026-03-16"]', '2026-03-16 09:00:00', '2026-03-16 09:00:00'),
 ('p06-par-table-speed', 'parameter', 'speed', 'p06-polisher', 'Nominal table speed for flats.', '{"scope":"rotary table","value":"60","unit":"rpm"}', 'active', 1.0, '["process notes"]', '2025-07-08 11:00:00', '2025-07-08 11:00:00'),
 ('p06-par-stroke', 'parameter', 'stroke length', 'p06-polisher', 'Default stroke for 200 mm flats.', '{"scope":"stroke arm","value":"120","unit":"mm"}', 'active', 1.0, '["process notes"]', '2025-07-08 11:00:00', '2025-07-08 11:00:00'),
 ('p06-par-flow', 'parameter', 'flow rate', 'p06-polisher', 'Slurry feed to the head.', '{"scope":"slurry","value":"0.5","unit":"L/min"}', 'active', 1.0, '["process notes"]', '2025-07-08 11:00:00', '2025-07-08 11:00:00'),
 -- CONFLICT 14: two active concentrations whose validity windows DO
 -- overlap (2025-11-01 to 2026-03-01): 10 wt% vs 12 wt%.
 ('p06-par-conc-10', 'parameter', 'concentration', 'p06-polisher', 'Recipe R1.', '{"scope":"slurry","value":"10","unit":"wt%","valid_from":"2025-03-01 00:00:00","valid_until":"2026-03-01 00:00:00"}', 'active', 1.0, '["recipe R1"]', '2025-07-08 11:00:00', '2025-07-08 11:00:00'),
 ('p06-par-conc-12', 'parameter', 'concentration', 'p06-polisher', 'Recipe R2, started before R1 was retired.', '{"scope":"slurry","value":"12","unit":"wt%","valid_from":"2025-11-01 00:00:00"}', 'active', 1.0, '["recipe R2"]', '2025-11-03 11:00:00', '2025-11-03 11:00:00'),
 -- p06: analysis -----------------------------------------------------------------
 ('p06-am-preston', 'analysis_model', 'Preston removal model', 'p06-polisher', 'Dwell-time based removal prediction.', '{"subsystem":"Spindle head","method":"Preston equation","solver":"Python/NumPy"}', 'active', 1.0, '["process notes"]', '2025-07-08 11:00:00', '2025-07-08 11:00:00'),
 ('p06-am-base-modal', 'analysis_model', 'Base modal FEA', 'p06-polisher', 'Granite on frame on levelling feet.', '{"subsystem":"Machine base","method":"modal analysis","solver":"Ansys Mechanical 2024 R2"}', 'active', 1.0, '["base FEA report"]', '2025-05-05 10:00:00', '2025-05-05 10:00:00'),
 ('p06-am-arm', 'analysis_model', 'Stroke arm dynamics', 'p06-polisher', 'Arm, head and axis at 2 Hz stroke.', '{"subsystem":"Stroke arm","method":"multibody simulation","solver":"Simscape Multibody"}', 'active', 1.0, '["drive sizing"]', '2025-06-03 11:00:00', '2025-06-03 11:00:00'),
 ('p06-res-removal', 'result', 'Predicted removal rate', 'p06-polisher', 'Ceria, 3 kPa, 0.5 m/s.', '{"model":"Preston removal model","key":"removal rate","value":"0.8","unit":"µm/h"}', 'active', 1.0, '["process notes"]', '2025-07-08 11:00:00', '2025-07-08 11:00:00'),
 ('p06-res-base-mode', 'result', 'Base first mode', 'p06-polisher', 'Rocking mode on the levelling feet.', '{"model":"Base modal FEA","key":"first mode frequency","value":"85","unit":"Hz"}', 'active', 1.0, '["base FEA report"]', '2025-05-05 10:00:00', '2025-05-05 10:00:00'),
 ('p06-res-following', 'result', 'Stroke following error', 'p06-polisher', 'Peak at the reversal.', '{"model":"Stroke arm dynamics","key":"following error","value":"15","unit":"µm"}', 'active', 1.0, '["drive sizing"]', '2025-06-03 11:00:00', '2025-06-03 11:00:00'),
 ('p06-vc-figure', 'validation_claim', 'Surface figure on the 200 mm test flat', 'p06-polisher', 'λ/12 PV after one run with pitch.', '{"key":"test flat figure","verdict":"pass"}', 'active', 1.0, '["polishing run log 2026-06"]', '2026-06-22 10:00:00', '2026-06-22 10:00:00'),
 ('p06-vc-removal', 'validation_claim', 'Removal rate matches the Preston model', 'p06-polisher', 'Measured 0.7 µm/h against 0.8 predicted.', '{"key":"removal model check","verdict":"pass"}', 'active', 0.9, '["polishing run log 2026-06"]', '2026-06-22 10:00:00', '2026-06-22 10:00:00'),
 -- gap: nothing supports this claim.
 ('p06-vc-uniformity', 'validation_claim', 'Removal uniformity across 300 mm', 'p06-polisher', 'Needs the 300 mm test blank.', '{"key":"removal uniformity","verdict":"pending"}', 'active', 1.0, '["acceptance test plan"]', '2026-06-22 10:00:00', '2026-06-22 10:00:00'),
 -- p06: vendors, processes, artifacts -------------------------------------------
 ('p06-ven-beckhoff', 'vendor', 'Beckhoff', 'p06-polisher', 'Controller, drives, EtherCAT I/O.', '{}', 'active', 1.0, '[]', '2025-03-24 10:00:00', '2025-03-24 10:00:00'),
 ('p06-ven-dupont', 'vendor', 'DuPont', 'p06-polisher', 'IC1000 polyurethane pads.', '{}', 'active', 1.0, '[]', '2025-07-08 11:00:00', '2025-07-08 11:00:00'),
 ('p06-ven-gugolz', 'vendor', 'Gugolz', 'p06-polisher', 'Optical pitch.', '{}', 'active', 1.0, '[]', '2026-03-09 11:00:00', '2026-03-09 11:00:00'),
 ('p06-ven-kistler', 'vendor', 'Kistler', 'p06-polisher', 'Load cell and charge amplifier.', '{}', 'active', 1.0, '[]', '2025-06-03 11:00:00', '2025-06-03 11:00:00'),
 ('p06-proc-pitch', 'process', 'Pitch lap pressing', 'p06-polisher', 'Warm-press the lap on the test flat before each run.', '{}', 'active', 1.0, '["process notes"]', '2026-03-09 11:00:00', '2026-03-09 11:00:00'),
 ('p06-proc-slurry-mix', 'process', 'Slurry mixing', 'p06-polisher', 'Ceria in DI water, stirred 30 min, pH checked.', '{}', 'active', 1.0, '["process notes"]', '2025-07-08 11:00:00', '2025-07-08 11:00:00'),
 ('p06-proc-run', 'process', 'Polishing run', 'p06-polisher', 'Load, home, run recipe, rinse, measure.', '{}', 'active', 1.0, '["operating manual draft"]', '2026-05-12 10:00:00', '2026-05-12 10:00:00'),
 ('p06-proc-acceptance', 'process', 'Machine acceptance test', 'p06-polisher', 'Runs the acceptance test plan.', '{}', 'candidate', 0.7, '["acceptance test plan"]', '2026-06-22 10:00:00', '2026-06-22 10:00:00'),
 ('p06-art-frame-drawing', 'artifact', 'Machine frame drawing rev A', 'p06-polisher', 'Frame, granite and feet.', '{"path":"drawings/p06-frame-revA.pdf"}', 'active', 1.0, '[]', '2025-03-24 10:00:00', '2025-03-24 10:00:00'),
 ('p06-art-run-log', 'artifact', 'Polishing run log 2026-06', 'p06-polisher', 'Runs 1 to 14 with interferograms.', '{"path":"logs/p06-runs-2026-06.csv"}', 'active', 1.0, '[]', '2026-06-22 10:00:00', '2026-06-22 10:00:00'),
 ('p06-art-atp', 'artifact', 'Acceptance test plan', 'p06-polisher', 'Figure, removal, uniformity, safety.', '{"path":"plans/p06-atp.md"}', 'active', 1.0, '[]', '2026-06-22 10:00:00', '2026-06-22 10:00:00'),
 ('p06-art-risk', 'artifact', 'Risk assessment rev 2 (EN ISO 12100)', 'p06-polisher', 'Hazards, measures, residual risks.', '{"path":"safety/p06-risk-rev2.pdf"}', 'active', 1.0, '[]', '2026-04-20 16:00:00', '2026-04-20 16:00:00');

-- ===========================================================================
-- Relationships
-- ===========================================================================
-- Written as (source, type, target); the id is '<source>:<type>:<target>'
-- and created_at the later of the two entities' created_at. The LEFT JOIN
-- makes a typo in an entity id fail the load (created_at NOT NULL) instead
-- of dropping the edge silently.

CREATE TEMP TABLE example_edge (src TEXT NOT NULL, type TEXT NOT NULL, dst TEXT NOT NULL, confidence REAL NOT NULL DEFAULT 1.0);

INSERT INTO temp.example_edge(src, type, dst) VALUES
 -- p04 structure
 ('p04-sys-board', 'part_of', 'p04-prj'),
 ('p04-sys-board', 'contains', 'p04-sub-clocking'),
 ('p04-sys-board', 'contains', 'p04-sub-optical'),
 ('p04-sys-board', 'contains', 'p04-sub-fpga'),
 ('p04-sys-board', 'contains', 'p04-sub-power'),
 ('p04-sys-board', 'contains', 'p04-sub-pcb'),
 ('p04-sys-board', 'contains', 'p04-sub-enclosure'),
 ('p04-sub-clocking', 'part_of', 'p04-sys-board'),
 ('p04-sub-optical', 'part_of', 'p04-sys-board'),
 ('p04-sub-fpga', 'part_of', 'p04-sys-board'),
 ('p04-sub-power', 'part_of', 'p04-sys-board'),
 ('p04-sub-pcb', 'part_of', 'p04-sys-board'),
 ('p04-sub-enclosure', 'part_of', 'p04-sys-board'),
 ('p04-cmp-ref-osc', 'part_of', 'p04-sub-clocking'),
 ('p04-cmp-sfp-cage', 'part_of', 'p04-sub-optical'),
 ('p04-cmp-sfp-module', 'part_of', 'p04-sub-optical'),
 ('p04-cmp-fpga', 'part_of', 'p04-sub-fpga'),
 ('p04-cmp-heatsink', 'part_of', 'p04-sub-fpga'),
 ('p04-cmp-thermal-pad', 'part_of', 'p04-sub-fpga'),
 ('p04-cmp-core-reg', 'part_of', 'p04-sub-power'),
 ('p04-cmp-main-board', 'part_of', 'p04-sub-pcb'),
 ('p04-cmp-front-panel', 'part_of', 'p04-sub-enclosure'),
 ('p04-cmp-housing', 'part_of', 'p04-sub-enclosure'),
 ('p04-cmp-fpga', 'interfaces_with', 'p04-ifc-serdes'),
 ('p04-cmp-sfp-module', 'interfaces_with', 'p04-ifc-serdes'),
 ('p04-cmp-sfp-module', 'interfaces_with', 'p04-ifc-optical'),
 ('p04-cmp-ref-osc', 'interfaces_with', 'p04-ifc-refclk'),
 ('p04-cmp-fpga', 'interfaces_with', 'p04-ifc-refclk'),
 ('p04-cmp-core-reg', 'interfaces_with', 'p04-ifc-power-in'),
 ('p04-cmp-fpga', 'interfaces_with', 'p04-ifc-jtag'),
 ('p04-cmp-sfp-module', 'depends_on', 'p04-cmp-sfp-cage'),
 ('p04-cmp-fpga', 'depends_on', 'p04-cmp-ref-osc'),
 ('p04-cmp-fpga', 'depends_on', 'p04-cmp-core-reg'),
 -- p04 materials (Main board: active 370HR, superseded standard FR-4)
 ('p04-cmp-main-board', 'uses_material', 'p04-mat-fr4-370hr'),
 ('p04-cmp-main-board', 'uses_material', 'p04-mat-fr4-std'),
 ('p04-mat-fr4-370hr', 'supersedes', 'p04-mat-fr4-std'),
 ('p04-cmp-heatsink', 'uses_material', 'p04-mat-heatsink'),
 ('p04-cmp-thermal-pad', 'uses_material', 'p04-mat-gap-pad'),
 ('p04-cmp-sfp-cage', 'uses_material', 'p04-mat-cage'),
 ('p04-cmp-front-panel', 'uses_material', 'p04-mat-front-panel'),
 ('p04-cmp-housing', 'uses_material', 'p04-mat-housing'),
 -- p04 intent
 ('p04-sub-clocking', 'affected_by_decision', 'p04-dec-refclk-156'),
 ('p04-cmp-ref-osc', 'affected_by_decision', 'p04-dec-refclk-156'),
 ('p04-sub-optical', 'affected_by_decision', 'p04-dec-formfactor-sfp-2'),
 ('p04-cmp-sfp-cage', 'affected_by_decision', 'p04-dec-formfactor-sfp-2'),
 ('p04-cmp-core-reg', 'affected_by_decision', 'p04-dec-core-reg-buck'),
 ('p04-cmp-fpga', 'affected_by_decision', 'p04-dec-hdl'),
 ('p04-sub-fpga', 'affected_by_decision', 'p04-dec-mgmt'),
 -- CHECK supersede-chain: SFP -> SFP+ -> SFP (reverted), the head.
 ('p04-dec-formfactor-sfpplus', 'supersedes', 'p04-dec-formfactor-sfp-1'),
 ('p04-dec-formfactor-sfp-2', 'supersedes', 'p04-dec-formfactor-sfpplus'),
 ('p04-dec-core-reg-buck', 'supersedes', 'p04-dec-core-reg-ldo'),
 ('p04-cmp-sfp-module', 'satisfies', 'p04-req-line-rate'),
 ('p04-cmp-sfp-module', 'satisfies', 'p04-req-reach'),
 ('p04-cmp-fpga', 'satisfies', 'p04-req-ber'),
 ('p04-dec-core-reg-buck', 'satisfies', 'p04-req-power'),
 ('p04-cmp-heatsink', 'satisfies', 'p04-req-ambient'),
 ('p04-cmp-main-board', 'satisfies', 'p04-req-format'),
 ('p04-cmp-main-board', 'constrained_by', 'p04-con-layers-8'),
 ('p04-cmp-main-board', 'constrained_by', 'p04-con-layers-10'),
 ('p04-cmp-main-board', 'constrained_by', 'p04-con-thickness'),
 ('p04-cmp-main-board', 'constrained_by', 'p04-con-impedance'),
 ('p04-cmp-core-reg', 'constrained_by', 'p04-con-ripple'),
 ('p04-cmp-ref-osc', 'constrained_by', 'p04-con-jitter'),
 -- p04 validation
 ('p04-sub-optical', 'analyzed_by', 'p04-am-link-budget'),
 ('p04-sub-pcb', 'analyzed_by', 'p04-am-si'),
 ('p04-sub-fpga', 'analyzed_by', 'p04-am-thermal'),
 ('p04-am-link-budget', 'based_on_assumption', 'p04-par-launch'),
 ('p04-am-link-budget', 'based_on_assumption', 'p04-par-sensitivity'),
 ('p04-res-margin', 'depends_on', 'p04-am-link-budget'),
 ('p04-res-eye', 'depends_on', 'p04-am-si'),
 ('p04-res-tj', 'depends_on', 'p04-am-thermal'),
 ('p04-res-tj', 'supersedes', 'p04-res-tj-old'),
 ('p04-res-ripple', 'depends_on', 'p04-par-fsw-1'),
 ('p04-req-ber', 'validated_by', 'p04-vc-ber'),
 ('p04-req-ambient', 'validated_by', 'p04-vc-thermal'),
 ('p04-req-emc', 'validated_by', 'p04-vc-emc'),
 ('p04-art-ber-report', 'supports', 'p04-vc-ber'),
 ('p04-res-margin', 'supports', 'p04-vc-ber'),
 ('p04-res-tj', 'supports', 'p04-vc-thermal'),
 ('p04-vc-ber', 'evidenced_by', 'p04-art-ber-report'),
 -- p04 provenance and supply
 ('p04-sys-board', 'described_by', 'p04-art-schematic'),
 ('p04-con-layers-10', 'described_by', 'p04-art-review'),
 ('p04-cmp-main-board', 'described_by', 'p04-art-stackup'),
 ('p04-dec-refclk-156', 'updated_by_session', 'p04-art-review'),
 ('p04-res-eye', 'summarized_in', 'p04-art-review'),
 ('p04-proc-soak', 'described_by', 'p04-art-ber-report'),
 ('p04-cmp-main-board', 'depends_on', 'p04-proc-assembly'),
 ('p04-cmp-fpga', 'depends_on', 'p04-ven-amd'),
 ('p04-cmp-main-board', 'depends_on', 'p04-ven-eurocircuits'),
 ('p04-cmp-sfp-module', 'depends_on', 'p04-ven-fs'),
 ('p04-cmp-ref-osc', 'depends_on', 'p04-ven-sitime'),

 -- p05 structure
 ('p05-sys-bench', 'part_of', 'p05-prj'),
 ('p05-sys-bench', 'contains', 'p05-sub-source'),
 ('p05-sys-bench', 'contains', 'p05-sub-expander'),
 ('p05-sys-bench', 'contains', 'p05-sub-refoptics'),
 ('p05-sys-bench', 'contains', 'p05-sub-mount'),
 ('p05-sys-bench', 'contains', 'p05-sub-imaging'),
 ('p05-sys-bench', 'contains', 'p05-sub-frame'),
 ('p05-sys-bench', 'contains', 'p05-sub-enclosure'),
 ('p05-sub-source', 'part_of', 'p05-sys-bench'),
 ('p05-sub-expander', 'part_of', 'p05-sys-bench'),
 ('p05-sub-refoptics', 'part_of', 'p05-sys-bench'),
 ('p05-sub-mount', 'part_of', 'p05-sys-bench'),
 ('p05-sub-imaging', 'part_of', 'p05-sys-bench'),
 ('p05-sub-frame', 'part_of', 'p05-sys-bench'),
 ('p05-sub-enclosure', 'part_of', 'p05-sys-bench'),
 ('p05-cmp-laser', 'part_of', 'p05-sub-source'),
 ('p05-cmp-spatial-filter', 'part_of', 'p05-sub-source'),
 ('p05-cmp-collimator', 'part_of', 'p05-sub-expander'),
 ('p05-cmp-trans-flat', 'part_of', 'p05-sub-refoptics'),
 ('p05-cmp-ref-mirror', 'part_of', 'p05-sub-refoptics'),
 ('p05-cmp-piezo', 'part_of', 'p05-sub-refoptics'),
 ('p05-cmp-lateral', 'part_of', 'p05-sub-mount'),
 ('p05-cmp-axial', 'part_of', 'p05-sub-mount'),
 ('p05-cmp-cell', 'part_of', 'p05-sub-mount'),
 ('p05-cmp-camera', 'part_of', 'p05-sub-imaging'),
 ('p05-cmp-imaging-lens', 'part_of', 'p05-sub-imaging'),
 ('p05-cmp-bench-plate', 'part_of', 'p05-sub-frame'),
 ('p05-cmp-struts', 'part_of', 'p05-sub-frame'),
 ('p05-cmp-panels', 'part_of', 'p05-sub-enclosure'),
 ('p05-cmp-laser', 'interfaces_with', 'p05-ifc-fibre'),
 ('p05-cmp-spatial-filter', 'interfaces_with', 'p05-ifc-fibre'),
 ('p05-cmp-camera', 'interfaces_with', 'p05-ifc-gige'),
 ('p05-cmp-piezo', 'interfaces_with', 'p05-ifc-piezo-drive'),
 ('p05-cmp-cell', 'interfaces_with', 'p05-ifc-kinematic'),
 ('p05-cmp-bench-plate', 'interfaces_with', 'p05-ifc-kinematic'),
 ('p05-cmp-lateral', 'depends_on', 'p05-cmp-cell'),
 ('p05-cmp-axial', 'depends_on', 'p05-cmp-cell'),
 ('p05-cmp-trans-flat', 'depends_on', 'p05-cmp-piezo'),
 -- p05 materials (Mirror cell: active aluminium, superseded stainless)
 ('p05-cmp-spatial-filter', 'uses_material', 'p05-mat-pinhole'),
 ('p05-cmp-collimator', 'uses_material', 'p05-mat-collimator'),
 ('p05-cmp-trans-flat', 'uses_material', 'p05-mat-trans-flat'),
 ('p05-cmp-ref-mirror', 'uses_material', 'p05-mat-ref-mirror'),
 ('p05-cmp-piezo', 'uses_material', 'p05-mat-piezo'),
 ('p05-cmp-axial', 'uses_material', 'p05-mat-axial'),
 ('p05-cmp-cell', 'uses_material', 'p05-mat-cell-alu'),
 ('p05-cmp-cell', 'uses_material', 'p05-mat-cell-steel'),
 ('p05-mat-cell-alu', 'supersedes', 'p05-mat-cell-steel'),
 ('p05-cmp-imaging-lens', 'uses_material', 'p05-mat-imaging-lens'),
 ('p05-cmp-bench-plate', 'uses_material', 'p05-mat-bench-plate'),
 ('p05-cmp-struts', 'uses_material', 'p05-mat-struts'),
 ('p05-cmp-panels', 'uses_material', 'p05-mat-panels'),
 -- p05 intent
 ('p05-cmp-lateral', 'affected_by_decision', 'p05-dec-lateral-material-peek'),
 ('p05-sub-mount', 'affected_by_decision', 'p05-dec-lateral-material-peek'),
 ('p05-cmp-piezo', 'affected_by_decision', 'p05-dec-phase-actuator-piezo'),
 ('p05-sub-refoptics', 'affected_by_decision', 'p05-dec-config-fizeau'),
 ('p05-cmp-camera', 'affected_by_decision', 'p05-dec-camera-sensor'),
 ('p05-sub-enclosure', 'affected_by_decision', 'p05-dec-enclosure-cooling'),
 ('p05-dec-phase-actuator-piezo', 'supersedes', 'p05-dec-phase-actuator-stepper'),
 ('p05-cmp-trans-flat', 'satisfies', 'p05-req-aperture'),
 ('p05-cmp-collimator', 'satisfies', 'p05-req-aperture'),
 ('p05-sub-enclosure', 'satisfies', 'p05-req-repeat'),
 ('p05-cmp-trans-flat', 'satisfies', 'p05-req-accuracy'),
 ('p05-dec-phase-actuator-piezo', 'satisfies', 'p05-req-meas-time'),
 ('p05-dec-algorithm', 'satisfies', 'p05-req-meas-time'),
 ('p05-cmp-camera', 'satisfies', 'p05-req-mass-cap'),
 ('p05-cmp-camera', 'satisfies', 'p05-req-heat-cap'),
 ('p05-cmp-camera', 'constrained_by', 'p05-req-mass-cap'),
 ('p05-cmp-camera', 'constrained_by', 'p05-req-heat-cap'),
 ('p05-cmp-bench-plate', 'constrained_by', 'p05-con-flatness'),
 ('p05-sub-enclosure', 'constrained_by', 'p05-con-enclosure-temp'),
 ('p05-cmp-ref-mirror', 'constrained_by', 'p05-con-sag'),
 ('p05-cmp-piezo', 'constrained_by', 'p05-con-piezo-voltage'),
 -- p05 validation
 ('p05-sub-frame', 'analyzed_by', 'p05-am-modal'),
 ('p05-sub-mount', 'analyzed_by', 'p05-am-mount'),
 ('p05-cmp-lateral', 'analyzed_by', 'p05-am-mount'),
 ('p05-sub-enclosure', 'analyzed_by', 'p05-am-thermal'),
 ('p05-am-mount', 'based_on_assumption', 'p05-par-mirror-mass-cad'),
 ('p05-am-thermal', 'based_on_assumption', 'p05-con-enclosure-temp'),
 ('p05-res-mode1-a', 'depends_on', 'p05-am-modal'),
 ('p05-res-mode1-b', 'depends_on', 'p05-am-modal'),
 ('p05-res-surface', 'depends_on', 'p05-am-mount'),
 ('p05-res-drift', 'depends_on', 'p05-am-thermal'),
 ('p05-req-repeat', 'validated_by', 'p05-vc-repeat-pass'),
 ('p05-req-repeat', 'validated_by', 'p05-vc-repeat-fail'),
 ('p05-req-accuracy', 'validated_by', 'p05-vc-accuracy'),
 ('p05-art-repeat-report', 'supports', 'p05-vc-repeat-pass'),
 ('p05-res-drift', 'supports', 'p05-vc-repeat-pass'),
 ('p05-res-mode1-b', 'supports', 'p05-vc-first-mode'),
 ('p05-res-mode1-a', 'supports', 'p05-vc-first-mode'),
 ('p05-vc-repeat-pass', 'evidenced_by', 'p05-art-repeat-report'),
 ('p05-art-lab-log', 'supports', 'p05-vc-repeat-fail'),
 ('p05-vc-repeat-fail', 'evidenced_by', 'p05-art-lab-log'),
 -- p05 provenance and supply
 ('p05-sys-bench', 'described_by', 'p05-art-layout'),
 ('p05-am-mount', 'described_by', 'p05-art-fea-report'),
 ('p05-res-surface', 'summarized_in', 'p05-art-fea-report'),
 ('p05-dec-lateral-material-peek', 'evidenced_by', 'p05-art-fea-report'),
 ('p05-dec-lateral-material-peek', 'updated_by_session', 'p05-art-session'),
 ('p05-cmp-lateral', 'depends_on', 'p05-proc-pad-bonding'),
 ('p05-proc-alignment', 'described_by', 'p05-art-layout'),
 ('p05-cmp-trans-flat', 'depends_on', 'p05-ven-zygo'),
 ('p05-cmp-ref-mirror', 'depends_on', 'p05-ven-schott'),
 ('p05-cmp-piezo', 'depends_on', 'p05-ven-pi'),
 ('p05-cmp-bench-plate', 'depends_on', 'p05-ven-thorlabs'),

 -- p06 structure
 ('p06-sys-machine', 'part_of', 'p06-prj'),
 ('p06-sys-machine', 'contains', 'p06-sub-base'),
 ('p06-sys-machine', 'contains', 'p06-sub-spindle'),
 ('p06-sys-machine', 'contains', 'p06-sub-table'),
 ('p06-sys-machine', 'contains', 'p06-sub-arm'),
 ('p06-sys-machine', 'contains', 'p06-sub-slurry'),
 ('p06-sys-machine', 'contains', 'p06-sub-control'),
 ('p06-sub-base', 'part_of', 'p06-sys-machine'),
 ('p06-sub-spindle', 'part_of', 'p06-sys-machine'),
 ('p06-sub-table', 'part_of', 'p06-sys-machine'),
 ('p06-sub-arm', 'part_of', 'p06-sys-machine'),
 ('p06-sub-slurry', 'part_of', 'p06-sys-machine'),
 ('p06-sub-control', 'part_of', 'p06-sys-machine'),
 ('p06-cmp-granite', 'part_of', 'p06-sub-base'),
 ('p06-cmp-frame', 'part_of', 'p06-sub-base'),
 ('p06-cmp-spindle-motor', 'part_of', 'p06-sub-spindle'),
 ('p06-cmp-spindle-housing', 'part_of', 'p06-sub-spindle'),
 ('p06-cmp-head', 'part_of', 'p06-sub-spindle'),
 ('p06-cmp-pad', 'part_of', 'p06-sub-spindle'),
 ('p06-cmp-rotary', 'part_of', 'p06-sub-table'),
 ('p06-cmp-chuck', 'part_of', 'p06-sub-table'),
 ('p06-cmp-linear-axis', 'part_of', 'p06-sub-arm'),
 ('p06-cmp-load-cell', 'part_of', 'p06-sub-arm'),
 ('p06-cmp-pump', 'part_of', 'p06-sub-slurry'),
 ('p06-cmp-tank', 'part_of', 'p06-sub-slurry'),
 ('p06-cmp-splash', 'part_of', 'p06-sub-slurry'),
 ('p06-cmp-controller', 'part_of', 'p06-sub-control'),
 ('p06-cmp-controller', 'interfaces_with', 'p06-ifc-ethercat'),
 ('p06-cmp-spindle-motor', 'interfaces_with', 'p06-ifc-ethercat'),
 ('p06-cmp-linear-axis', 'interfaces_with', 'p06-ifc-ethercat'),
 ('p06-cmp-head', 'interfaces_with', 'p06-ifc-head-flange'),
 ('p06-cmp-spindle-housing', 'interfaces_with', 'p06-ifc-head-flange'),
 ('p06-cmp-pump', 'interfaces_with', 'p06-ifc-slurry-line'),
 ('p06-cmp-head', 'interfaces_with', 'p06-ifc-slurry-line'),
 ('p06-cmp-controller', 'interfaces_with', 'p06-ifc-safety'),
 ('p06-cmp-pad', 'depends_on', 'p06-cmp-head'),
 ('p06-cmp-chuck', 'depends_on', 'p06-cmp-rotary'),
 -- p06 materials (Polishing pad: two active materials, CONFLICT 9)
 ('p06-cmp-granite', 'uses_material', 'p06-mat-granite'),
 ('p06-cmp-frame', 'uses_material', 'p06-mat-frame'),
 ('p06-cmp-spindle-housing', 'uses_material', 'p06-mat-spindle-housing'),
 ('p06-cmp-head', 'uses_material', 'p06-mat-head'),
 ('p06-cmp-pad', 'uses_material', 'p06-mat-pad-pu'),
 ('p06-cmp-pad', 'uses_material', 'p06-mat-pad-pitch'),
 ('p06-cmp-rotary', 'uses_material', 'p06-mat-rotary'),
 ('p06-cmp-chuck', 'uses_material', 'p06-mat-chuck'),
 ('p06-cmp-load-cell', 'uses_material', 'p06-mat-load-cell'),
 ('p06-cmp-pump', 'uses_material', 'p06-mat-pump'),
 ('p06-cmp-tank', 'uses_material', 'p06-mat-tank'),
 ('p06-cmp-splash', 'uses_material', 'p06-mat-splash'),
 -- p06 intent
 ('p06-sub-slurry', 'affected_by_decision', 'p06-dec-abrasive-ceria'),
 ('p06-cmp-head', 'affected_by_decision', 'p06-dec-pressure-deadweight'),
 ('p06-cmp-head', 'affected_by_decision', 'p06-dec-pressure-bellows'),
 ('p06-cmp-load-cell', 'affected_by_decision', 'p06-dec-pressure-bellows'),
 ('p06-cmp-linear-axis', 'affected_by_decision', 'p06-dec-arm-drive-linear'),
 ('p06-sub-control', 'affected_by_decision', 'p06-dec-platform'),
 ('p06-con-power-2025', 'affected_by_decision', 'p06-dec-spindle-derate'),
 ('p06-dec-abrasive-ceria', 'supersedes', 'p06-dec-abrasive-zirconia'),
 ('p06-dec-arm-drive-linear', 'supersedes', 'p06-dec-arm-drive-screw'),
 ('p06-cmp-pad', 'satisfies', 'p06-req-figure'),
 ('p06-cmp-chuck', 'satisfies', 'p06-req-diameter'),
 ('p06-cmp-rotary', 'satisfies', 'p06-req-wp-mass'),
 ('p06-dec-abrasive-ceria', 'satisfies', 'p06-req-removal'),
 ('p06-cmp-pad', 'satisfies', 'p06-req-roughness'),
 ('p06-cmp-head', 'constrained_by', 'p06-con-pressure'),
 ('p06-sys-machine', 'constrained_by', 'p06-con-footprint'),
 ('p06-cmp-spindle-motor', 'constrained_by', 'p06-con-power-2025'),
 ('p06-cmp-spindle-motor', 'constrained_by', 'p06-con-power-2026'),
 ('p06-sub-slurry', 'constrained_by', 'p06-con-ph'),
 -- p06 validation
 ('p06-sub-spindle', 'analyzed_by', 'p06-am-preston'),
 ('p06-sub-base', 'analyzed_by', 'p06-am-base-modal'),
 ('p06-sub-arm', 'analyzed_by', 'p06-am-arm'),
 ('p06-am-preston', 'based_on_assumption', 'p06-con-pressure'),
 ('p06-am-preston', 'based_on_assumption', 'p06-par-table-speed'),
 ('p06-res-removal', 'depends_on', 'p06-am-preston'),
 ('p06-res-base-mode', 'depends_on', 'p06-am-base-modal'),
 ('p06-res-following', 'depends_on', 'p06-am-arm'),
 ('p06-req-figure', 'validated_by', 'p06-vc-figure'),
 ('p06-req-removal', 'validated_by', 'p06-vc-removal'),
 ('p06-art-run-log', 'supports', 'p06-vc-figure'),
 ('p06-res-removal', 'supports', 'p06-vc-removal'),
 ('p06-art-run-log', 'supports', 'p06-vc-removal'),
 ('p06-vc-figure', 'evidenced_by', 'p06-art-run-log'),
 -- p06 provenance and supply
 ('p06-sys-machine', 'described_by', 'p06-art-frame-drawing'),
 ('p06-proc-acceptance', 'described_by', 'p06-art-atp'),
 ('p06-ifc-safety', 'described_by', 'p06-art-risk'),
 ('p06-res-following', 'summarized_in', 'p06-art-atp'),
 ('p06-dec-pressure-bellows', 'updated_by_session', 'p06-art-run-log'),
 ('p06-cmp-pad', 'depends_on', 'p06-proc-pitch'),
 ('p06-proc-run', 'depends_on', 'p06-proc-slurry-mix'),
 ('p06-cmp-controller', 'depends_on', 'p06-ven-beckhoff'),
 ('p06-mat-pad-pu', 'depends_on', 'p06-ven-dupont'),
 ('p06-mat-pad-pitch', 'depends_on', 'p06-ven-gugolz'),
 ('p06-cmp-load-cell', 'depends_on', 'p06-ven-kistler');

-- A few edges are less certain than the rest.
UPDATE temp.example_edge SET confidence = 0.7
 WHERE (src, type, dst) IN (VALUES
  ('p04-res-margin', 'supports', 'p04-vc-ber'),
  ('p05-res-drift', 'supports', 'p05-vc-repeat-pass'),
  ('p06-dec-abrasive-ceria', 'satisfies', 'p06-req-removal'));

INSERT INTO relationships(id, source_entity_id, target_entity_id, relationship_type, confidence, created_at)
 SELECT e.src || ':' || e.type || ':' || e.dst, e.src, e.dst, e.type, e.confidence,
        max(s.created_at, d.created_at)
   FROM temp.example_edge AS e
   LEFT JOIN entities AS s ON s.id = e.src
   LEFT JOIN entities AS d ON d.id = e.dst
  ORDER BY e.rowid;

DROP TABLE temp.example_edge;

-- ===========================================================================
-- Layer 1: memories
-- ===========================================================================

INSERT INTO memories(id, memory_type, content, project, confidence, status, reference_count, domain_tags, valid_until, graduated_to_entity_id, created_at, updated_at) VALUES
 -- identity (one per slot and project, plus history and a candidate) ------
 ('mem-identity-role', 'identity', 'works as the lead optomechanical engineer in the instrument lab', '', 0.95, 'active', 14, '["identity"]', NULL, NULL, '2025-01-06 09:00:00', '2025-09-01 09:00:00'),
 ('mem-identity-role-2024', 'identity', 'works as a junior optical designer', '', 0.9, 'superseded', 3, '["identity"]', NULL, NULL, '2025-01-06 09:00:00', '2025-01-20 09:00:00'),
 ('mem-identity-background', 'identity', 'studied applied physics at EPFL', '', 0.9, 'active', 5, '["identity"]', NULL, NULL, '2025-01-06 09:00:00', '2025-01-06 09:00:00'),
 ('mem-identity-credentials', 'identity', 'is certified as laser safety officer (LSO)', '', 0.95, 'active', 6, '["identity","safety"]', NULL, NULL, '2025-03-17 09:00:00', '2025-03-17 09:00:00'),
 ('mem-identity-crane', 'identity', 'is licensed to operate the lab crane', '', 0.5, 'candidate', 0, '["identity","safety"]', NULL, NULL, '2026-04-20 09:00:00', '2026-04-20 09:00:00'),
 ('mem-identity-p05-role', 'identity', 'role on p05: optical test lead', 'p05', 0.9, 'active', 8, '["identity","p05"]', NULL, NULL, '2025-02-03 09:00:00', '2025-02-03 09:00:00'),
 -- preferences ---------------------------------------------------------------
 -- SPEC 8 example: "prefers rebase workflow" vs "prefers merge-commit
 -- workflow" in the same project. CONFLICT 2 (topic "workflow").
 ('mem-pref-rebase', 'preference', 'prefers rebase workflow', 'p04-gigabit', 0.8, 'active', 4, '["git","workflow"]', NULL, NULL, '2025-03-03 09:00:00', '2025-03-03 09:00:00'),
 ('mem-pref-merge-commit', 'preference', 'prefers merge-commit workflow', 'p04-gigabit', 0.8, 'active', 2, '["git","workflow"]', NULL, NULL, '2025-10-20 09:00:00', '2025-10-20 09:00:00'),
 -- SPEC 8 example: "prefers small diffs" twice. no conflict (duplicate).
 ('mem-pref-small-diffs-1', 'preference', 'prefers small diffs', '', 0.9, 'active', 11, '["git","review"]', NULL, NULL, '2025-01-13 09:00:00', '2025-01-13 09:00:00'),
 ('mem-pref-small-diffs-2', 'preference', 'prefers small diffs', '', 0.9, 'active', 3, '["git","review"]', NULL, NULL, '2025-08-11 09:00:00', '2025-08-11 09:00:00'),
 -- "ruff for linting" vs "flake8 for linting": CONFLICT 3 (topic "linting").
 ('mem-pref-ruff', 'preference', 'uses ruff for linting', '', 0.85, 'active', 7, '["python","tooling"]', NULL, NULL, '2025-05-05 09:00:00', '2025-05-05 09:00:00'),
 ('mem-pref-flake8', 'preference', 'uses flake8 for linting', '', 0.7, 'active', 2, '["python","tooling"]', NULL, NULL, '2025-02-10 09:00:00', '2025-02-10 09:00:00'),
 -- "never use X" vs "use X": CONFLICT 4 (topic "lens cleaning").
 ('mem-pref-never-compressed-air', 'preference', 'never use compressed air for lens cleaning', 'p06-polisher', 0.9, 'active', 5, '["optics","cleaning","safety"]', NULL, NULL, '2026-05-18 09:00:00', '2026-05-18 09:00:00'),
 ('mem-pref-compressed-air', 'preference', 'use compressed air for lens cleaning', 'p06-polisher', 0.6, 'active', 1, '["optics","cleaning"]', NULL, NULL, '2025-09-22 09:00:00', '2025-09-22 09:00:00'),
 -- SPEC 8 example: active "uses X" vs candidate "uses Y" (topic
 -- "tolerancing"). no conflict: candidates take no part.
 ('mem-pref-zemax', 'preference', 'uses Zemax OpticStudio for tolerancing', 'p05-interferometer', 0.9, 'active', 6, '["optics","design"]', NULL, NULL, '2025-03-12 09:00:00', '2025-03-12 09:00:00'),
 ('mem-pref-codev', 'preference', 'uses Code V for tolerancing', 'p05-interferometer', 0.5, 'candidate', 0, '["optics","design"]', NULL, NULL, '2026-02-02 09:00:00', '2026-02-02 09:00:00'),
 -- no conflict: the weekly-review preference expired on 2025-12-31, so
 -- only the fortnightly one takes part (topic "review").
 ('mem-pref-weekly-reviews', 'preference', 'prefers weekly design reviews', 'p04-gigabit', 0.8, 'active', 3, '["process"]', '2025-12-31 23:59:59', NULL, '2025-03-03 09:00:00', '2025-03-03 09:00:00'),
 ('mem-pref-fortnightly-reviews', 'preference', 'prefers fortnightly design reviews', 'p04-gigabit', 0.8, 'active', 2, '["process"]', NULL, NULL, '2026-01-12 09:00:00', '2026-01-12 09:00:00'),
 -- no conflict: black (superseded) then ruff format (active) for formatting.
 ('mem-pref-black', 'preference', 'uses black for formatting', '', 0.8, 'superseded', 9, '["python","tooling"]', NULL, NULL, '2025-01-13 09:00:00', '2025-05-05 09:00:00'),
 ('mem-pref-ruff-format', 'preference', 'uses ruff format for formatting', '', 0.85, 'active', 4, '["python","tooling"]', NULL, NULL, '2025-05-05 09:00:00', '2025-05-05 09:00:00'),
 ('mem-pref-si-units', 'preference', 'prefers SI units over imperial units', '', 0.95, 'active', 12, '["units"]', NULL, NULL, '2025-01-06 09:00:00', '2025-01-06 09:00:00'),
 ('mem-pref-markdown', 'preference', 'likes plain-text notes in Markdown', '', 0.9, 'active', 8, '["notes"]', NULL, NULL, '2025-01-06 09:00:00', '2025-01-06 09:00:00'),
 ('mem-pref-meetings', 'preference', 'avoids early meetings', '', 0.7, 'active', 2, '["schedule"]', NULL, NULL, '2025-04-14 09:00:00', '2025-04-14 09:00:00'),
 ('mem-pref-kicad', 'preference', 'prefers KiCad for schematic capture', 'p04-gigabit', 0.9, 'active', 5, '["electronics","tooling"]', NULL, NULL, '2025-01-20 09:00:00', '2025-01-20 09:00:00'),
 ('mem-pref-interlocks', 'preference', 'wants interlocks tested before every run', 'p06-polisher', 0.95, 'active', 6, '["safety"]', NULL, NULL, '2026-04-20 09:00:00', '2026-04-20 09:00:00'),
 ('mem-pref-python', 'preference', 'prefers Python for data analysis', 'p06-polisher', 0.9, 'active', 3, '["python","analysis"]', NULL, NULL, '2025-07-08 09:00:00', '2025-07-08 09:00:00'),
 ('mem-pref-fasteners', 'preference', 'uses metric fasteners rather than imperial ones', 'p06', 0.9, 'active', 2, '["mechanical"]', NULL, NULL, '2025-03-24 09:00:00', '2025-03-24 09:00:00'),
 ('mem-pref-labview', 'preference', 'prefers LabVIEW for instrument control', 'p05-interferometer', 0.3, 'invalid', 1, '["software"]', NULL, NULL, '2025-02-17 09:00:00', '2025-03-03 09:00:00'),
 ('mem-pref-kinematic', 'preference', 'prefers kinematic mounts for removable optics', 'p05-interferometer', 0.9, 'graduated', 4, '["optics","mechanical"]', NULL, 'p05-ifc-kinematic', '2025-03-24 09:00:00', '2025-03-24 12:00:00'),
 -- project memories (no "<subject> is <value>" shape, so no slot) ---------
 ('mem-proj-p04-batch', 'project', 'First prototype batch of five boards ordered from Eurocircuits', 'p04-gigabit', 0.9, 'active', 3, '["p04","procurement"]', NULL, NULL, '2025-07-01 09:00:00', '2025-07-01 09:00:00'),
 ('mem-proj-p04-rework', 'project', 'Board #2 needed a reworked SFP cage footprint', 'gigabit', 0.9, 'active', 4, '["p04","pcb"]', NULL, NULL, '2025-09-15 09:00:00', '2025-09-15 09:00:00'),
 ('mem-proj-p04-10g', 'project', 'Keep a 10G upgrade path open for a later board revision', 'p04-gigabit', 0.6, 'active', 1, '["p04","roadmap"]', '2030-12-31 00:00:00', NULL, '2025-11-24 09:00:00', '2025-11-24 09:00:00'),
 ('mem-proj-p05-lab', 'project', 'Bench sits in lab B014 on the isolated slab', 'interferometer', 0.9, 'active', 2, '["p05","facilities"]', NULL, NULL, '2025-04-07 09:00:00', '2025-04-07 09:00:00'),
 -- graduated: became the process entity p05-proc-pad-bonding.
 ('mem-proj-p05-pads', 'project', 'Lateral support pads get bonded with Araldite 2011 after plasma cleaning', 'p05-interferometer', 0.9, 'graduated', 5, '["p05","assembly"]', NULL, 'p05-proc-pad-bonding', '2025-11-10 09:00:00', '2025-11-17 10:00:00'),
 ('mem-proj-p06-board', 'project', 'Commissioning tasks tracked on the p06 issue board', 'p06-polisher', 0.8, 'active', 2, '["p06","process"]', NULL, NULL, '2026-03-02 09:00:00', '2026-03-02 09:00:00'),
 ('mem-proj-p06-hall', 'project', 'Machine assembly planned in hall 2', 'p06-polisher', 0.7, 'superseded', 1, '["p06","facilities"]', NULL, NULL, '2025-03-24 09:00:00', '2025-06-03 09:00:00'),
 -- a project the projects table does not list: kept under its own name.
 ('mem-proj-p03-jig', 'project', 'Alignment jig drawings handed to the workshop in March 2025', 'p03-alignment-jig', 0.8, 'active', 1, '["p03","workshop"]', NULL, NULL, '2025-03-28 09:00:00', '2025-03-28 09:00:00'),
 -- knowledge -----------------------------------------------------------------
 -- CONFLICT 11: two memories on key fpga_part disagree with the state
 -- (XC7A100T) and with each other: one cross_layer conflict, 3 members.
 ('mem-know-fpga-35t', 'knowledge', 'FPGA part is XC7A35T', 'p04-gigabit', 0.6, 'active', 2, '["p04","fpga"]', NULL, NULL, '2025-02-10 09:00:00', '2025-02-10 09:00:00'),
 ('mem-know-fpga-50t', 'knowledge', 'FPGA part is XC7A50T', 'p04', 0.6, 'active', 1, '["p04","fpga"]', NULL, NULL, '2025-04-14 09:00:00', '2025-04-14 09:00:00'),
 -- no conflict: agrees with state p05-st-wavelength and parameter
 -- p05-par-wavelength (trailing period dropped); written with alias 'p05'.
 ('mem-know-wavelength', 'knowledge', 'Laser wavelength is 632.8 nm.', 'p05', 0.9, 'active', 9, '["p05","optics"]', NULL, NULL, '2025-03-12 09:00:00', '2025-03-12 09:00:00'),
 -- no conflict: contradicts state aperture (150 mm) but expired 2025-12-31.
 ('mem-know-aperture-old', 'knowledge', 'Aperture is 100 mm', 'p05-interferometer', 0.7, 'active', 3, '["p05","optics"]', '2025-12-31 23:59:59', NULL, '2025-02-03 09:00:00', '2025-02-03 09:00:00'),
 -- CONFLICT 6 (three layers): 250 rpm against state 300 rpm.
 ('mem-know-spindle', 'knowledge', 'Spindle max speed is 250 rpm', 'p06-polisher', 0.7, 'active', 3, '["p06","drives"]', NULL, NULL, '2025-04-28 09:00:00', '2025-04-28 09:00:00'),
 -- no conflict: would contradict state slurry_abrasive, but is a candidate.
 ('mem-know-abrasive', 'knowledge', 'Slurry abrasive is zirconium oxide', 'p06-polisher', 0.5, 'candidate', 0, '["p06","process"]', NULL, NULL, '2026-03-09 09:00:00', '2026-03-09 09:00:00'),
 -- no conflict: would contradict state lateral_support_material, but is invalid.
 ('mem-know-lateral-viton', 'knowledge', 'Lateral support material is Viton', 'p05-interferometer', 0.3, 'invalid', 0, '["p05","materials"]', NULL, NULL, '2025-06-16 09:00:00', '2025-06-30 09:00:00'),
 ('mem-know-zerodur', 'knowledge', 'Zerodur has a CTE of about 0.02 ppm/K near room temperature', '', 0.9, 'active', 6, '["materials","optics"]', NULL, NULL, '2025-03-12 09:00:00', '2025-03-12 09:00:00'),
 ('mem-know-hene-warmup', 'knowledge', 'HeNe lasers need about 15 minutes of warm-up for a stable wavelength', '', 0.9, 'active', 4, '["optics","lasers"]', NULL, NULL, '2025-09-03 09:00:00', '2025-09-03 09:00:00'),
 ('mem-know-preston', 'knowledge', 'Polishing removal scales with pressure times relative velocity (Preston)', '', 0.95, 'active', 7, '["polishing"]', NULL, NULL, '2025-07-08 09:00:00', '2025-07-08 09:00:00'),
 ('mem-know-8b10b', 'knowledge', '1000BASE-X carries 1 Gb/s at 1.25 Gbd because of 8b/10b coding', 'p04-gigabit', 0.95, 'active', 3, '["p04","ethernet"]', NULL, NULL, '2025-02-20 09:00:00', '2025-02-20 09:00:00'),
 ('mem-know-ceria-ph', 'knowledge', 'Ceria slurry needs a pH between 7 and 9 to stay dispersed', 'p06-polisher', 0.9, 'active', 2, '["p06","process"]', NULL, NULL, '2025-07-08 09:00:00', '2025-07-08 09:00:00'),
 ('mem-know-sfp-stock', 'knowledge', 'SFP modules from the old stock need a firmware update before use', 'p04-gigabit', 0.8, 'active', 1, '["p04","procurement"]', '2026-03-31 00:00:00', NULL, '2025-10-14 09:00:00', '2025-10-14 09:00:00'),
 ('mem-know-gugolz', 'knowledge', 'Gugolz 73 pitch flows noticeably above 25 °C', 'p06-polisher', 0.8, 'candidate', 0, '["p06","process"]', NULL, NULL, '2026-06-22 09:00:00', '2026-06-22 09:00:00'),
 -- adaptation ----------------------------------------------------------------
 ('mem-adapt-conflicts-first', 'adaptation', 'When asked for a design review, list open conflicts first', '', 0.9, 'active', 5, '["review"]', NULL, NULL, '2025-11-03 09:00:00', '2025-11-03 09:00:00'),
 ('mem-adapt-nm-rms', 'adaptation', 'Quote wavefront numbers in nm rms, not in waves', 'p05-interferometer', 0.9, 'active', 6, '["p05","units"]', NULL, NULL, '2025-10-06 09:00:00', '2025-10-06 09:00:00'),
 ('mem-adapt-run-log', 'adaptation', 'Put polishing run details in the run log, not in chat', 'p06-polisher', 0.8, 'active', 2, '["p06","process"]', NULL, NULL, '2026-05-12 09:00:00', '2026-05-12 09:00:00'),
 ('mem-adapt-units', 'adaptation', 'Give every tolerance with its unit', '', 0.9, 'active', 4, '["units"]', NULL, NULL, '2025-04-14 09:00:00', '2025-04-14 09:00:00'),
 ('mem-adapt-french', 'adaptation', 'Reply in French', '', 0.6, 'superseded', 1, '["language"]', NULL, NULL, '2025-01-06 09:00:00', '2025-01-13 09:00:00'),
 ('mem-adapt-long-answers', 'adaptation', 'Give long background explanations before every answer', '', 0.3, 'invalid', 0, '["style"]', NULL, NULL, '2025-01-13 09:00:00', '2025-01-20 09:00:00'),
 -- episodic (never a slot) ------------------------------------------------------
 ('mem-epi-link-up', 'episodic', 'Link came up at 1.25 Gbd on board #2 after swapping the SFP module (2025-10-14)', 'p04-gigabit', 1.0, 'active', 3, '["p04","bring-up"]', NULL, NULL, '2025-10-14 17:00:00', '2025-10-14 17:00:00'),
 ('mem-epi-review', 'episodic', 'Design review of 2025-06-12 asked for a 10-layer stackup', 'p04-gigabit', 1.0, 'active', 2, '["p04","review"]', NULL, NULL, '2025-06-12 17:00:00', '2025-06-12 17:00:00'),
 ('mem-epi-fringes', 'episodic', 'Saw first fringes with the temporary mount (2025-09-03)', 'p05-interferometer', 1.0, 'active', 4, '["p05","milestone"]', NULL, NULL, '2025-09-03 18:00:00', '2025-09-03 18:00:00'),
 ('mem-epi-zygo-visit', 'episodic', 'Zygo applications engineer visited to discuss the transmission flat', 'interferometer', 1.0, 'active', 1, '["p05","vendor"]', NULL, NULL, '2025-06-02 15:00:00', '2025-06-02 15:00:00'),
 ('mem-epi-peek-meeting', 'episodic', 'Meeting of 2026-01-19 proposed PEEK pads for the lateral support', 'p05-interferometer', 1.0, 'active', 2, '["p05","review"]', NULL, NULL, '2026-01-19 17:00:00', '2026-01-19 17:00:00'),
 ('mem-epi-pump-trip', 'episodic', 'Slurry pump tripped during the first slurry test', 'p06-polisher', 1.0, 'active', 2, '["p06","commissioning"]', NULL, NULL, '2026-04-02 15:00:00', '2026-04-02 15:00:00'),
 ('mem-epi-granite', 'episodic', 'Granite base arrived cracked', 'p06-polisher', 0.4, 'invalid', 0, '["p06","logistics"]', NULL, NULL, '2025-11-20 09:00:00', '2025-11-21 09:00:00'),
 ('mem-epi-optatec', 'episodic', 'Attended the Optatec fair in Frankfurt', '', 1.0, 'active', 1, '["events"]', '2026-06-30 00:00:00', NULL, '2026-05-14 09:00:00', '2026-05-14 09:00:00');

-- ===========================================================================
-- Audit trail (optional table): how some of the history above came about.
-- ===========================================================================

INSERT INTO memory_audit(id, memory_id, entity_kind, action, actor, before_json, after_json, note, timestamp) VALUES
 ('audit-ex-001', 'mem-identity-role-2024', 'memory', 'superseded', 'curator', '{"status":"active"}', '{"status":"superseded"}', 'replaced by mem-identity-role', '2025-01-20 09:00:00'),
 ('audit-ex-002', 'mem-pref-black', 'memory', 'superseded', 'curator', '{"status":"active"}', '{"status":"superseded"}', 'switched to ruff format', '2025-05-05 09:00:00'),
 ('audit-ex-003', 'mem-proj-p05-pads', 'memory', 'graduated', 'curator', '{"status":"active"}', '{"status":"graduated","graduated_to_entity_id":"p05-proc-pad-bonding"}', 'now a process entity', '2025-11-17 10:00:00'),
 ('audit-ex-004', 'mem-know-lateral-viton', 'memory', 'invalidated', 'curator', '{"status":"active"}', '{"status":"invalid"}', 'Viton was only used for the transport pads', '2025-06-30 09:00:00'),
 ('audit-ex-005', 'p04-dec-formfactor-sfpplus', 'entity', 'superseded', 'curator', '{"status":"active"}', '{"status":"superseded"}', 'reverted to SFP in the design review of 2025-09-15', '2025-09-15 15:00:00'),
 ('audit-ex-006', 'p05-dec-phase-actuator-stepper', 'entity', 'superseded', 'curator', '{"status":"active"}', '{"status":"superseded"}', 'piezo stack chosen', '2025-05-22 14:00:00');

COMMIT;
